"""Playing a whole game in one process: a seeded full-information dealer that
plays chance, and a runner that asks bots for moves from their own views."""
