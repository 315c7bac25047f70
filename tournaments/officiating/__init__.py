"""Officiating: rule 6.3's penalty ladder and the rulings catalogue, as data.

- `ladder`: each offence's steps (warning, points, disqualification from the round or the event)
  and the step a player's earlier offences lead to;
- `catalogue`: the disputes the official reference answers (sections 1-10 of seed 000), each with
  the facts that decide it and its outcomes;
- `advice`: a situation and its facts in, the ruling, citations, correction and offence out;
- `recorded`: what a recorded ruling decided, in words (its situation's title, the penalty given).

Nothing here writes the database (`recorded` reads a ruling already loaded): the services
(`tournaments.services.penalties`) count a player's earlier offences and record what the official
decides.
"""
