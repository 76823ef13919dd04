/// Exported accounts as the dataset holds them until their subjects are evaluated: packed into
/// the dataset's arena instead of an `AccountRecord`'s six to ten strings each (an export of 2M
/// users held about 1.5 GiB of records). The evaluation unpacks each once, and the unpacked
/// record equals the one stored.
enum StoredAccount {
    static func pack(_ account: AccountRecord) -> [UInt8] {
        var writer = PackedWriter()
        writer.string(account.localId)
        writer.optionalString(account.email)
        writer.optionalString(account.phoneNumber)
        writer.count(
            (account.hasPasswordHash ? 1 : 0) | (account.disabled ? 2 : 0) | (account.createdAt == nil ? 0 : 4)
                | (account.customClaims == nil ? 0 : 8))
        if let createdAt = account.createdAt {
            writer.signed(createdAt.seconds)
            writer.count(Int(createdAt.nanosecondOfSecond))
        }
        writer.count(account.providers.count)
        for provider in account.providers {
            writer.string(provider.providerId)
            writer.optionalString(provider.rawId)
            writer.optionalString(provider.email)
            writer.optionalString(provider.federatedId)
        }
        // Claims are rare and small: kept as their canonical JSON text.
        if let claims = account.customClaims { writer.string(claims.canonicalText) }
        writer.string(account.location.file)
        writer.count(account.location.line)
        writer.count(account.location.column.map { $0 + 1 } ?? 0)
        return writer.bytes
    }

    /// The account at a position of the arena; nil for the position -1 (no account).
    static func unpack(at position: Int, in arena: PackedArena) -> AccountRecord? {
        guard position >= 0 else { return nil }
        var reader = arena.reader(at: position)
        return unpack(&reader)
    }

    static func unpack(_ reader: inout PackedReader) -> AccountRecord {
        let localId = reader.string()
        let email = reader.optionalString()
        let phoneNumber = reader.optionalString()
        let flags = reader.count()
        let createdAt = flags & 4 == 0 ? nil : Timestamp(seconds: reader.signed(), nanosecondOfSecond: Int32(reader.count()))
        let providers = (0..<reader.count()).map { _ in
            AccountRecord.ProviderEntry(
                providerId: reader.string(), rawId: reader.optionalString(), email: reader.optionalString(),
                federatedId: reader.optionalString())
        }
        let claims = flags & 8 == 0 ? nil : try? JSONParser.parseDocument(reader.string())
        let file = reader.string()
        let line = reader.count()
        let columnPlusOne = reader.count()
        return AccountRecord(
            localId: localId, email: email, phoneNumber: phoneNumber, hasPasswordHash: flags & 1 != 0, disabled: flags & 2 != 0,
            createdAt: createdAt, providers: providers, customClaims: claims,
            location: SourceLocation(file: file, line: line, column: columnPlusOne == 0 ? nil : columnPlusOne - 1))
    }
}
