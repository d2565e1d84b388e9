"""Test support shared across test packages (fake OpenAI-compatible server)."""
