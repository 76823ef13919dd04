/// How a mapper picks, for each record, which of the record paths an alias stands for
/// (`AliasPaths`) is its value: worked out once per record and kept (`MappingScope`), however
/// many paths read through the alias, and however deep aliases are made of aliases.
///
/// Choosing again for every path read through an alias doubled the work at each level of an
/// alias made of another (`p2: {first: [{path: $p1}]}`): 20 levels took seconds per record.
struct BoundAlias: Sendable {
    /// The value at each of the alias's paths (by their position in `AliasPaths`): a `first`
    /// chooses the first candidate whose value is present and not null.
    let values: [BoundPath.RecordRead]
    let choice: AliasChoice
}

/// An alias's definition, choosing one of its paths (by position).
indirect enum AliasChoice: Sendable {
    /// Always this path (a record path).
    case path(Int)
    /// The path another alias chose (its position in `let`), as one of this alias's paths:
    /// `paths[j]` is where that alias's path j leads, with the segments after it.
    case alias(Int, paths: [Int])
    /// The first candidate whose value is present and not null (`first`).
    case first([AliasChoice])
    /// By a condition (`if`); without `else`, no path when it does not hold.
    case condition(MappingCondition, then: AliasChoice, else: AliasChoice?)
}
