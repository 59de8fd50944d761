"""Splitting a pair: the one home of the split facts and values."""
