extension String {
    /// The text as a report or a message quotes a value from the inputs (an id, a key, a token's
    /// `kid`): whole up to `limit` Unicode scalars, else its first `limit` and "…". Quoted whole,
    /// a key or a `kid` of a megabyte made a message of a megabyte. Scalars, not characters: a
    /// letter with 200,000 combining marks is one character of 400 KB.
    func shortened(to limit: Int = 64) -> String {
        // Counted no further than the limit: a count of a long text walks all of it.
        guard utf8.count > limit, unicodeScalars.prefix(limit + 1).count > limit else { return self }
        var kept = String.UnicodeScalarView(unicodeScalars.prefix(limit))
        // A word the cut goes through that holds an `@` may be an address: kept up to the cut,
        // its name would show without its domain, which masking does not read as an address.
        // The cut is moved to before the word (looked for up to 256 scalars past the cut).
        let wordStart = kept.lastIndex(where: \.properties.isWhitespace).map { kept.index(after: $0) } ?? kept.startIndex
        let rest = unicodeScalars.dropFirst(limit).prefix(256).prefix { !$0.properties.isWhitespace }
        if kept[wordStart...].contains("@") || rest.contains("@") { kept.removeSubrange(wordStart...) }
        return String(kept) + "…"
    }
}
