package io.refstore.core.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.InitialRefWriter;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * Creates demo repositories: bare, SHA-1, with real objects (so {@code git fsck} passes)
 * and a few thousand refs laid out as on a busy hosting server:
 * <ul>
 * <li>{@code HEAD}, a symbolic ref to {@code refs/heads/main}, which has a reflog of its
 * last moves;</li>
 * <li>{@code refs/heads/main}, {@code refs/heads/release/*} and
 * {@code refs/heads/feature/*} branches, each with a reflog;</li>
 * <li>annotated release tags {@code refs/tags/v1.N.0} (peeled values stored) and
 * lightweight build tags;</li>
 * <li>GitHub-style {@code refs/pull/N/head} and Gerrit-style
 * {@code refs/changes/NN/NNNN/P}.</li>
 * </ul>
 * Objects are written as loose objects by
 * {@link io.refstore.core.objects.LooseObjectWriter}, refs with
 * {@link RefStores#initialWriter} in either format, never by running git. The same
 * options give the same repository, byte for byte in its refs. Stateless.
 */
public final class DemoRepositories {

	/** What to create; {@link #DEFAULT} makes about 3,500 refs over 400 commits. */
	public record Options(int commits, int features, int pulls, int changes) {

		/** The default demo. */
		public static final Options DEFAULT = new Options(400, 300, 2000, 600);

	}

	private DemoRepositories() {
	}

	/**
	 * Creates a bare repository in {@code dir} with its refs in {@code format}.
	 * @param dir a missing or empty directory
	 * @return the number of refs written under {@code refs/}
	 * @throws IllegalArgumentException if {@code dir} exists and is not an empty
	 * directory
	 * @throws IOException if writing fails (the directory is then left partly written)
	 */
	public static int create(Path dir, RefFormat format, Options options) throws IOException {
		if (Files.exists(dir)) {
			try (var entries = Files.list(dir)) {
				if (entries.findAny().isPresent()) {
					throw new IllegalArgumentException("dir '" + dir + "' is not empty");
				}
			}
		}
		Files.createDirectories(dir.resolve("objects/info"));
		Files.createDirectories(dir.resolve("objects/pack"));
		Files.createDirectories(dir.resolve("refs/tags"));
		Files.createDirectories(dir.resolve("refs/heads"));
		Files.writeString(dir.resolve("HEAD"), "ref: refs/heads/main\n");
		Files.writeString(dir.resolve("description"), "refstore demo repository\n");
		Files.writeString(dir.resolve("config"), config(RefFormat.FILES));
		DemoRefs.Layout layout = DemoRefs.layout(new DemoObjects(dir), options);
		if (format == RefFormat.REFTABLE) {
			Files.delete(dir.resolve("refs/heads"));
			Files.writeString(dir.resolve("refs/heads"), "this repository uses the reftable format\n");
			Files.writeString(dir.resolve("HEAD"), "ref: refs/heads/.invalid\n");
			Files.writeString(dir.resolve("config"), config(RefFormat.REFTABLE));
		}
		try (Repository repository = Repository.open(dir, Map.of())) {
			write(repository, format, dir, layout.refs(), DemoRefs.reflogs(layout));
		}
		return layout.refs().size() - 1;
	}

	private static String config(RefFormat format) {
		String core = "[core]\n\trepositoryformatversion = %d\n\tfilemode = true\n\tbare = true\n"
				+ "\tlogallrefupdates = true\n";
		return (format == RefFormat.FILES) ? core.formatted(0)
				: core.formatted(1) + "[extensions]\n\trefstorage = reftable\n";
	}

	private static void write(Repository repository, RefFormat format, Path dir, TreeMap<String, DemoRefs.Value> refs,
			TreeMap<String, List<ReflogEntry>> logs) throws IOException {
		int longest = logs.values().stream().mapToInt(List::size).max().orElse(0);
		try (InitialRefWriter writer = RefStores.initialWriter(repository, format, dir, longest)) {
			byte[] id = new byte[HashAlgorithm.SHA1.rawLength()];
			byte[] peeled = new byte[HashAlgorithm.SHA1.rawLength()];
			for (Map.Entry<String, DemoRefs.Value> ref : refs.entrySet()) {
				byte[] name = ref.getKey().getBytes(StandardCharsets.UTF_8);
				DemoRefs.Value value = ref.getValue();
				if (value.symref() != null) {
					writer.addSymbolic(name, name.length, value.symref());
					continue;
				}
				value.id().copyRawTo(id, 0);
				if (value.peeled() != null) {
					value.peeled().copyRawTo(peeled, 0);
				}
				writer.addDirect(name, name.length, id, (value.peeled() == null) ? null : peeled);
			}
			for (Map.Entry<String, List<ReflogEntry>> log : logs.entrySet()) {
				writer.addReflog(log.getKey(), log.getValue());
			}
			writer.finish();
		}
	}

	/** A reflog entry by the demo's committer. */
	static ReflogEntry entry(ObjectId old, ObjectId value, long time, String message) {
		return new ReflogEntry(old, value, new PersonIdent("Demo Author", "demo.author@example.com", time, 0), message);
	}

}
