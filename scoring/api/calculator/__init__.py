"""The stateless scoring API: /api/v1/score/, /api/v1/score-hole/, /api/v1/rulesets/ (nothing is saved)."""
