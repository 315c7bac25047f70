"""Tournament models arrive with the tournament issues."""
