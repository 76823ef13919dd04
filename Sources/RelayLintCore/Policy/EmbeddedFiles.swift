/// The built-in YAML files (`Rules/`, `Mappings/`), compiled into the library by the
/// `EmbedBuiltInFiles` build plugin so one copied executable carries its rules and mappings.
/// The generated extension holds `all`; the folders in the repository stay the single source.
enum EmbeddedFiles {
    /// One compiled-in file, named by its path in the repository.
    struct File: Sendable, Equatable {
        /// `Rules/consent-before-email-link.yml`: the name reports and diagnostics use.
        let path: String
        let text: String
    }
}
