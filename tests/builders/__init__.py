"""Builders the tests share: tables, hands, histories, servers (one module per room)."""
