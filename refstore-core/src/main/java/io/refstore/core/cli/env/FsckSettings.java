package io.refstore.core.cli.env;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.refstore.core.ref.RefCheck;
import io.refstore.core.ref.RefCheck.Severity;
import io.refstore.core.repo.GitConfig;

/**
 * git's {@code fsck.<msg-id>} settings as {@code refs verify} reads them: a severity
 * ({@code error}, {@code warn} or {@code ignore}) for any of git's message ids, written
 * in any case; an unknown id or severity, or a fatal check demoted, stops the command
 * with git's message. Settings for git's object checks are accepted and have no effect
 * here.
 */
public final class FsckSettings {

	/** git 2.55's message ids of object checks that are fatal, lower case. */
	private static final Set<String> FATAL = Set.of("nulinheader", "unterminatedheader");

	/**
	 * git 2.55's other message ids (of object checks; the ref checks are
	 * {@link RefCheck}'s), lower case without underscores, as git matches a setting.
	 */
	private static final Set<String> OTHERS = Set.of("badheadercontinuation", "baddate", "baddateoverflow", "bademail",
			"badgpgsig", "badname", "badobjectsha1", "badparentsha1", "badtimezone", "badtree", "badtreesha1",
			"badtype", "duplicateentries", "gitattributesblob", "gitattributeslarge", "gitattributeslinelength",
			"gitattributesmissing", "gitmodulesblob", "gitmoduleslarge", "gitmodulesmissing", "gitmodulesname",
			"gitmodulespath", "gitmodulessymlink", "gitmodulesupdate", "gitmodulesurl", "missingauthor",
			"missingcommitter", "missingemail", "missingnamebeforeemail", "missingobject", "missingspacebeforedate",
			"missingspacebeforeemail", "missingtag", "missingtagentry", "missingtree", "missingtype",
			"missingtypeentry", "multipleauthors", "treenotsorted", "unknowntype", "zeropaddeddate", "emptyname",
			"fullpathname", "hasdot", "hasdotdot", "hasdotgit", "largepathname", "nullsha1", "nulincommit",
			"zeropaddedfilemode", "badfilemode", "badtagname", "gitattributessymlink", "gitignoresymlink",
			"gitmodulesparse", "mailmapsymlink", "missingtaggerentry", "extraheaderentry");

	private FsckSettings() {
	}

	/**
	 * The severities {@code config}'s {@code fsck.*} variables set, later ones winning.
	 * @throws CommandFailure (fatal, as git dies) for an unknown id or severity, a
	 * variable without a value, or a fatal check demoted
	 */
	public static Map<RefCheck, Severity> read(GitConfig config) throws CommandFailure {
		Map<RefCheck, Severity> severities = new EnumMap<>(RefCheck.class);
		for (GitConfig.Variable variable : config.variables("fsck")) {
			String id = variable.name();
			if (id.equals("skiplist")) {
				continue;
			}
			if (variable.value() == null) {
				throw CommandFailure.fatal("missing value for 'fsck." + id + "'");
			}
			RefCheck check = refCheck(id);
			if (check == null && !FATAL.contains(id) && !OTHERS.contains(id)) {
				throw CommandFailure.fatal("Unhandled message id: " + id);
			}
			Severity severity = switch (variable.value()) {
				case "error" -> Severity.ERROR;
				case "warn" -> Severity.WARN;
				case "ignore" -> Severity.IGNORE;
				default -> throw CommandFailure.fatal("Unknown fsck message type: '" + variable.value() + "'");
			};
			if (severity != Severity.ERROR && FATAL.contains(id)) {
				throw CommandFailure.fatal("Cannot demote " + id + " to " + variable.value());
			}
			if (check != null) {
				severities.put(check, severity);
			}
		}
		return severities;
	}

	private static RefCheck refCheck(String id) {
		for (RefCheck check : RefCheck.values()) {
			if (check.isGits() && check.id().toLowerCase(Locale.ROOT).equals(id)) {
				return check;
			}
		}
		return null;
	}

}
