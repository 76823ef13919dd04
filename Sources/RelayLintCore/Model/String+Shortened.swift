extension String {
    /// The text as a message quotes a value from the inputs (a key, a token's `kid`): whole up to
    /// `limit` characters, else its start and "…". Quoted whole, a key or a `kid` of a megabyte
    /// made a message of a megabyte.
    func shortened(to limit: Int = 64) -> String {
        // Counted no further than the limit: a character count of a long text walks all of it.
        guard utf8.count > limit, prefix(limit + 1).count > limit else { return self }
        return prefix(limit) + "…"
    }
}
