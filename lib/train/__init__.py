"""Training shared by the papers: the SGD loop with warm-up + cosine, classifier heads, few-shot subsets."""
