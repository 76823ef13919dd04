extension String {
    /// The text as a report or a message quotes a value from the inputs (an id, a key, a token's
    /// `kid`): whole up to `limit` Unicode scalars, else its first `limit` and "…". Quoted whole,
    /// a key or a `kid` of a megabyte made a message of a megabyte. Scalars, not characters: a
    /// letter with 200,000 combining marks is one character of 400 KB.
    func shortened(to limit: Int = 64) -> String {
        // Counted no further than the limit: a count of a long text walks all of it.
        guard utf8.count > limit, unicodeScalars.prefix(limit + 1).count > limit else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.prefix(limit))) + "…"
    }
}
