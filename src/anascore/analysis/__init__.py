"""Error analysis: what went wrong in a response, and what each kind of error costs
(Kummerfeld & Klein 2013; see ``docs/error-analysis.md``)."""

#: ``anascore errors --output`` choices (here, so that the command line's parser need not import
#: the analysis to offer them).
OUTPUTS = ("text", "json", "csv", "markdown")
