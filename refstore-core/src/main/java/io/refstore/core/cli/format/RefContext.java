package io.refstore.core.cli.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.format.FormatTemplate.Rich;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.repo.GitConfig;
import io.refstore.core.repo.Repository;

/**
 * What the name atoms need from the repository beyond the ref itself: branch and remote
 * configuration ({@code %(upstream)}, {@code %(push)}), what HEAD and the worktrees'
 * HEADs name ({@code %(HEAD)}, {@code %(worktreepath)}), the mailmap, and whether colors
 * are on. Not thread-safe.
 */
final class RefContext {

	private final Repository repository;

	private final RefStore refs;

	private final boolean color;

	private String head;

	private List<String[]> worktrees;

	private Mailmap mailmap;

	private final AheadBehind walk;

	private final CommandContext command;

	RefContext(CommandContext command, boolean color) throws IOException {
		this.command = command;
		this.repository = command.repository();
		this.refs = command.refs();
		this.color = color;
		this.walk = new AheadBehind(command.objects(), this.refs.hashAlgorithm());
	}

	/** The command run this context serves: its environment, directory, stderr. */
	CommandContext command() {
		return this.command;
	}

	private BaseAtoms baseAtoms;

	/** The values of {@code %(ahead-behind)} and {@code %(is-base)}, worked out first. */
	void baseAtoms(BaseAtoms atoms) {
		this.baseAtoms = atoms;
	}

	/** Whether {@code %(color:...)} atoms print their colors. */
	boolean color() {
		return this.color;
	}

	Repository repository() {
		return this.repository;
	}

	Path objectsDir() {
		return this.repository.commonDir().resolve("objects");
	}

	Mailmap mailmap() throws IOException {
		if (this.mailmap == null) {
			this.mailmap = Mailmap.load(this.repository);
		}
		return this.mailmap;
	}

	String refValue(Rich atom, RefFields fields) throws IOException, CommandFailure {
		String name = fields.refName();
		switch (atom.name()) {
			case "color" -> {
				return this.color ? (String) atom.parsed() : "";
			}
			case "HEAD" -> {
				return name.equals(head()) ? "*" : " ";
			}
			case "worktreepath" -> {
				for (String[] worktree : worktrees()) {
					if (worktree[1].equals(name)) {
						return AtomValues.utf8(worktree[0]);
					}
				}
				return "";
			}
			case "refname" -> {
				return shape(name, atom, fields);
			}
			case "ahead-behind", "is-base" -> {
				return (this.baseAtoms != null) ? this.baseAtoms.value(atom, name) : "";
			}
			case "symref" -> {
				String target = fields.symrefTarget();
				return (target != null) ? shape(target, atom, fields) : "";
			}
			default -> {
				return remote(atom, fields, name);
			}
		}
	}

	private String remote(Rich atom, RefFields fields, String name) throws IOException, CommandFailure {
		if (!name.startsWith("refs/heads/")) {
			return "";
		}
		String branch = name.substring(11);
		GitConfig config = this.repository.config();
		boolean push = atom.name().equals("push");
		String remote = config.getString("branch", branch, "remote").orElse(null);
		String merge = config.getString("branch", branch, "merge").orElse(null);
		String remoteRef;
		boolean pushSpecs = false;
		if (push) {
			remote = config.getString("branch", branch, "pushRemote")
				.or(() -> config.getString("remote", null, "pushDefault"))
				.orElse(remote);
			if (remote == null) {
				return "";
			}
			List<String> specs = config.getAll("remote", remote, "push");
			pushSpecs = !specs.isEmpty();
			remoteRef = pushSpecs ? apply(specs, name) : null;
		}
		else {
			if (remote == null || merge == null) {
				return "";
			}
			remoteRef = merge;
		}
		NameModifier modifier = (NameModifier) atom.parsed();
		switch (modifier.kind()) {
			case REMOTENAME -> {
				return remote;
			}
			case REMOTEREF -> {
				return (!push || pushSpecs) ? remoteRef : "";
			}
			default -> {
			}
		}
		String tracking;
		if (push && !pushSpecs) {
			tracking = pushDefault(config, branch, name, remote, merge);
		}
		else {
			tracking = (remoteRef == null) ? null : tracking(config, remote, remoteRef);
		}
		if (tracking == null) {
			return "";
		}
		if (modifier.kind() == NameModifier.Kind.TRACK || modifier.kind() == NameModifier.Kind.TRACKSHORT) {
			Optional<DirectRef> upstream = this.refs.resolve(tracking);
			boolean shortForm = modifier.kind() == NameModifier.Kind.TRACKSHORT;
			if (upstream.isEmpty()) {
				return shortForm ? "" : (modifier.brackets() ? "[gone]" : "gone");
			}
			long[] counts = this.walk.count(fields.objectIdValue(), upstream.get().id());
			if (shortForm) {
				return (counts[0] > 0 && counts[1] > 0) ? "<>" : (counts[0] > 0) ? ">" : (counts[1] > 0) ? "<" : "=";
			}
			String text = (counts[0] > 0 && counts[1] > 0) ? "ahead " + counts[0] + ", behind " + counts[1]
					: (counts[0] > 0) ? "ahead " + counts[0] : (counts[1] > 0) ? "behind " + counts[1] : "";
			return (text.isEmpty() || !modifier.brackets()) ? text : "[" + text + "]";
		}
		return shape(tracking, atom, fields);
	}

	/**
	 * Where {@code push.default} sends a branch without push refspecs, or {@code null}
	 * for nowhere.
	 */
	private static String pushDefault(GitConfig config, String branch, String name, String remote, String merge) {
		String mode = config.getString("push", null, "default").orElse("simple");
		String upstreamRemote = config.getString("branch", branch, "remote").orElse(null);
		String upstream = (upstreamRemote != null && merge != null) ? tracking(config, upstreamRemote, merge) : null;
		switch (mode) {
			case "nothing" -> {
				return null;
			}
			case "upstream", "tracking" -> {
				return remote.equals(upstreamRemote) ? upstream : null;
			}
			case "simple" -> {
				// git's error (no single destination) leaves the atom empty
				String current = tracking(config, remote, name);
				return (upstream != null && upstream.equals(current)) ? current : null;
			}
			default -> {
				return tracking(config, remote, name);
			}
		}
	}

	/** The tracking ref of a remote's branch. */
	private static String tracking(GitConfig config, String remote, String remoteRef) {
		return remote.equals(".") ? remoteRef : apply(config.getAll("remote", remote, "fetch"), remoteRef);
	}

	/** Maps a ref through refspecs ({@code [+]src:dst}, one {@code *} each side). */
	private static String apply(List<String> specs, String remoteRef) {
		for (String spec : specs) {
			String s = spec.startsWith("+") ? spec.substring(1) : spec;
			int colon = s.indexOf(':');
			if (colon < 0) {
				continue;
			}
			String src = s.substring(0, colon);
			String dst = s.substring(colon + 1);
			int star = src.indexOf('*');
			if (star < 0) {
				if (src.equals(remoteRef)) {
					return dst;
				}
			}
			else if (remoteRef.startsWith(src.substring(0, star)) && remoteRef.endsWith(src.substring(star + 1))
					&& dst.indexOf('*') >= 0) {
				String middle = remoteRef.substring(star, remoteRef.length() - (src.length() - star - 1));
				return dst.replace("*", middle);
			}
		}
		return null;
	}

	private String shape(String value, Rich atom, RefFields fields) throws IOException {
		NameModifier modifier = (NameModifier) atom.parsed();
		byte[] b = value.getBytes(StandardCharsets.UTF_8);
		String shaped = switch (modifier.kind()) {
			case SHORT -> fields.shortName(value);
			case LSTRIP -> new String(b, RefFields.lstrip(b, b.length, modifier.number()),
					b.length - RefFields.lstrip(b, b.length, modifier.number()), StandardCharsets.UTF_8);
			case RSTRIP -> new String(b, 0, RefFields.rstrip(b, b.length, modifier.number()), StandardCharsets.UTF_8);
			default -> value;
		};
		return AtomValues.utf8(shaped);
	}

	private String head() throws IOException {
		if (this.head == null) {
			Optional<Ref> ref = this.refs.exactRef("HEAD");
			this.head = (ref.isPresent() && ref.get() instanceof SymbolicRef symbolic) ? symbolic.target() : "";
		}
		return this.head;
	}

	/**
	 * Each worktree's path and the branch its HEAD names, read through the store as
	 * {@code main-worktree/HEAD} and {@code worktrees/<name>/HEAD} (in reftable a linked
	 * worktree's HEAD is in its own stack, its HEAD file a stub).
	 */
	private List<String[]> worktrees() throws IOException {
		if (this.worktrees == null) {
			this.worktrees = new ArrayList<>();
			Path common = this.repository.commonDir();
			Optional<Path> main = this.repository.isBare() ? Optional.empty() : Optional.ofNullable(common.getParent());
			if (main.isPresent() && common.getFileName() != null && common.getFileName().toString().equals(".git")) {
				this.worktrees.add(new String[] { main.get().toString(), branchOf("main-worktree/HEAD") });
			}
			Path linked = common.resolve("worktrees");
			if (Files.isDirectory(linked)) {
				try (var dirs = Files.list(linked)) {
					for (Path dir : (Iterable<Path>) dirs::iterator) {
						String gitdir = readOrNull(dir.resolve("gitdir"));
						String branch = branchOf("worktrees/" + dir.getFileName() + "/HEAD");
						if (gitdir != null && !branch.isEmpty()) {
							Path top = Path.of(gitdir.strip()).getParent();
							this.worktrees.add(new String[] { String.valueOf(top), branch });
						}
					}
				}
			}
		}
		return this.worktrees;
	}

	/** The branch a symbolic ref names, or "" if it is not symbolic or missing. */
	private String branchOf(String name) throws IOException {
		Optional<Ref> ref = this.refs.exactRef(name);
		return (ref.isPresent() && ref.get() instanceof SymbolicRef symbolic) ? symbolic.target() : "";
	}

	private static String readOrNull(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			return null;
		}
	}

}
