"""Machinery the tasks share: runs and rows (`runs`, `rows`), resumable
sweeps (`sweep`), the papers' statistics (`stats`), the static arithmetic
tasks' success report (`success`), report formatting and registration
(`formatting`, `report_registry`) and Keras registration (`registration`).
Nothing here imports a task folder."""
