"""The study drill: deals at their exact frequencies, answers graded, the history, the count
drills."""
