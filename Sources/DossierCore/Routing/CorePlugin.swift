extension Plugin {
    /// The subject routers every import uses, in order of precedence.
    public static let core = Plugin(
        name: "core",
        summary: "subject routing: --subject, then pets/<id> or children/<id> folders, then folders named after "
            + "existing subjects, then file or folder names matching a subject's name or alias",
        routers: [RequestedSubjectRouter(), SubjectFolderRouter(), ExistingSubjectRouter(), SubjectNameRouter()]
    )
}
