package main

import (
	"flag"

	"transmute/pipelines"
)

// Flags of the property-guided search of --job properties (NOMOS, Algorithm 1).
var (
	searchBudget = flag.Int("search-budget", 0, "properties: property-guided search, temperatures tried per problem and direction (openai: only; paper: 20; 0: none)")
	searchStart  = flag.Float64("search-start", pipelines.PaperSearchOptions.Start, "properties: the search's first temperature")
	searchSigma  = flag.Float64("search-sigma", pipelines.PaperSearchOptions.Sigma, "properties: standard deviation of the search's Gaussian temperature mutation (the paper's variance 0.01)")
)

// searchOptions reads the search flags.
func searchOptions() pipelines.SearchOptions {
	return pipelines.SearchOptions{Budget: *searchBudget, Start: *searchStart, Sigma: *searchSigma}
}
