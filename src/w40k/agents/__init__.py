"""Players that answer the engine's decision requests."""

from w40k.agents.greedy import GreedyAgent
from w40k.agents.heuristic import HeuristicAgent
from w40k.agents.random_agent import RandomAgent

__all__ = ["GreedyAgent", "HeuristicAgent", "RandomAgent"]
