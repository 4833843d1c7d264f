"""Training of betting agents (action-masked PPO); see the training issue."""
