"""Reading a club's stats: the leaderboard, a member's stats and head-to-head, seasons."""
