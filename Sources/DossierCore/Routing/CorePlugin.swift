extension Plugin {
    /// The subject routers every import uses, in order of precedence.
    public static let core = Plugin(
        name: "core",
        summary: "subject routing: --subject, then pets/<id> or children/<id> folders, then existing subject ids",
        routers: [RequestedSubjectRouter(), SubjectFolderRouter(), ExistingSubjectRouter()]
    )
}
