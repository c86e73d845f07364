"""Error analysis: what went wrong in a response, and what each kind of error costs
(Kummerfeld & Klein 2013; see ``docs/error-analysis.md``)."""
