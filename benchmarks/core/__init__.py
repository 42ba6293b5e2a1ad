"""Machinery the tasks share: runs and rows (`runs`, `rows`), resumable
sweeps (`sweep`), the papers' statistics (`stats`), the static arithmetic
tasks' success report (`success`), report formatting and registration
(`formatting`, `report_registry`), Keras registration (`registration`) and
the tables' lazy references to what they build (`lazy`).
Nothing here imports a task folder."""
