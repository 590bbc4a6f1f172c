"""Games: the engines the platform knows, and the local series demo."""
