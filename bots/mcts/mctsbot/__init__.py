"""The mcts bot's search machinery: what a seat knows, a cheap playing policy, flat Monte Carlo.

``knowledge`` samples full games consistent with a seat's view, ``policy`` plays every phase by
a fast heuristic (the rollouts, and the answer when there is no time), ``search`` evaluates the
candidate actions of one decision over many sampled games.
"""
