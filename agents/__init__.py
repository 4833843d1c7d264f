"""Agents that play Teen Patti: scripted baselines (and, later, trained policies)."""

from agents.simple import SimpleBot

__all__ = ["SimpleBot"]
