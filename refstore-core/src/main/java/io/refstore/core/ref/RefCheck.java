package io.refstore.core.ref;

/**
 * What {@code refs verify} checks, by message id: git 2.55's ref checks (the ids of
 * {@code git fsck}'s documentation, with git's default severities), then refstore's own
 * deeper checks, which git does not make and {@code refs verify --deep} adds.
 */
public enum RefCheck {

	/** A {@code HEAD} that points to something outside {@code refs/heads/}. */
	BAD_HEAD_TARGET("badHeadTarget", Severity.ERROR),

	/** A {@code packed-refs} line that cannot be parsed. */
	BAD_PACKED_REF_ENTRY("badPackedRefEntry", Severity.ERROR),

	/**
	 * A {@code packed-refs} header that does not start with {@code # pack-refs with: }.
	 */
	BAD_PACKED_REF_HEADER("badPackedRefHeader", Severity.ERROR),

	/** A symbolic ref whose target is not a valid ref name. */
	BAD_REFERENT_NAME("badReferentName", Severity.ERROR),

	/** A loose ref file that holds neither an object id nor a symbolic ref. */
	BAD_REF_CONTENT("badRefContent", Severity.ERROR),

	/** A ref, or {@code packed-refs}, that is not a regular file (or a symbolic link). */
	BAD_REF_FILETYPE("badRefFiletype", Severity.ERROR),

	/** A ref whose name is not valid. */
	BAD_REF_NAME("badRefName", Severity.ERROR),

	/** A ref that holds the null object id. */
	BAD_REF_OID("badRefOid", Severity.ERROR),

	/** The last line of {@code packed-refs} without its newline. */
	PACKED_REF_ENTRY_NOT_TERMINATED("packedRefEntryNotTerminated", Severity.ERROR),

	/** A {@code packed-refs} whose header says {@code sorted} and whose refs are not. */
	PACKED_REF_UNSORTED("packedRefUnsorted", Severity.ERROR),

	/** A table whose name is not one git writes. */
	BAD_REFTABLE_TABLE_NAME("badReftableTableName", Severity.WARN),

	/** An empty {@code packed-refs}. */
	EMPTY_PACKED_REFS_FILE("emptyPackedRefsFile", Severity.INFO),

	/** A loose ref file without its final newline. */
	REF_MISSING_NEWLINE("refMissingNewline", Severity.INFO),

	/** A symbolic ref kept as a symbolic link, as git no longer writes them. */
	SYMLINK_REF("symlinkRef", Severity.INFO),

	/** A symbolic ref whose target is neither under {@code refs/} nor a root ref. */
	SYMREF_TARGET_IS_NOT_A_REF("symrefTargetIsNotARef", Severity.INFO),

	/** A loose ref file with more after its value than one newline. */
	TRAILING_REF_CONTENT("trailingRefContent", Severity.INFO),

	/** refstore's: a ref names an object the repository does not have. */
	MISSING_REF_OBJECT("missingRefObject", Severity.ERROR, false),

	/** refstore's: a branch names an object that is not a commit. */
	BAD_BRANCH_OBJECT("badBranchObject", Severity.ERROR, false),

	/** refstore's: a peeled value in {@code packed-refs} that is wrong or missing. */
	BAD_PACKED_REF_PEELED("badPackedRefPeeled", Severity.ERROR, false),

	/** refstore's: a peeled value in a reftable record that is wrong. */
	BAD_REF_PEELED("badRefPeeled", Severity.ERROR, false),

	/** refstore's: a table whose blocks cannot be decoded. */
	BAD_REFTABLE("badReftable", Severity.ERROR, false),

	/** refstore's: update indices out of a table's range or out of the stack's order. */
	BAD_REFTABLE_UPDATE_INDEX("badReftableUpdateIndex", Severity.ERROR, false);

	private final String id;

	private final Severity severity;

	private final boolean git;

	RefCheck(String id, Severity severity) {
		this(id, severity, true);
	}

	RefCheck(String id, Severity severity, boolean git) {
		this.id = id;
		this.severity = severity;
		this.git = git;
	}

	/** The message id as git prints it ({@code badRefName}). */
	public String id() {
		return this.id;
	}

	/** The severity git gives it unless configured otherwise. */
	public Severity defaultSeverity() {
		return this.severity;
	}

	/** Whether git 2.55's {@code refs verify} makes this check. */
	public boolean isGits() {
		return this.git;
	}

	/**
	 * How a finding counts, as in git's {@code fsck.<msg-id>} settings. {@code INFO} is
	 * printed as a warning and stays one under {@code --strict}; {@code FATAL} is only
	 * known so that a setting cannot demote one of git's fatal object checks.
	 */
	public enum Severity {

		FATAL, ERROR, WARN, INFO, IGNORE

	}

}
