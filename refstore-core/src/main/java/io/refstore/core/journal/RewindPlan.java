package io.refstore.core.journal;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import io.refstore.core.io.Fsync;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.repo.RefusedJobInputException;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.RepositoryId;
import io.refstore.core.repo.RepositoryInputs;

/**
 * A point-in-time restore, planned: each ref to set back, from the value it held when
 * planned to the value it held at the moment (zeros for "did not exist"). The plan is
 * written before anything changes and {@link RefRewinder} applies it as compare-and-swap
 * updates, so running it again is safe, a ref changed since by another writer is left
 * alone, and the plan's {@link #inverse()} undoes it.
 *
 * <h2>Format, version 1</h2> UTF-8 text, lines ending in {@code LF}:
 *
 * <pre>
 * refstore-rewind-plan 1
 * hash &lt;sha1|sha256&gt;
 * repository &lt;id|-&gt;                 the repository's identity ({@link RepositoryId}), checked before a run
 * at &lt;seconds&gt;.&lt;nanoseconds&gt;       the moment restored to (informative)
 * prefix &lt;text&gt;                     the refs it covers, to the end of the line (informative)
 * step &lt;from&gt; &lt;to&gt; &lt;name&gt;          one ref: its value when planned and the value to set
 * </pre>
 *
 * Ref names hold no space or line break (git refuses them), so a step needs no escape.
 *
 * @param hash the object ids' hash
 * @param repository the repository's identity, or {@code null}
 * @param at the moment restored to
 * @param prefix the refs covered
 * @param steps the refs to set, deletions first (a ref restored where a deleted one's
 * directory was must come after it)
 */
public record RewindPlan(HashAlgorithm hash, RepositoryId repository, Instant at, String prefix, List<Step> steps) {

	/**
	 * The directory of the git directory that keeps plans, the jobs' and the
	 * {@code refstore journal rewind} command's.
	 */
	public static final String DIR = "refstore-plans";

	private static final String MAGIC = "refstore-rewind-plan 1";

	private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
		.withZone(ZoneOffset.UTC);

	private static final Pattern PLAN_NAME = Pattern.compile("rewind-[0-9]{8}T[0-9]{6}Z-[0-9a-f]{4}\\.plan");

	/**
	 * One ref of a plan.
	 *
	 * @param name the ref
	 * @param from its value when planned (zeros: absent)
	 * @param to its value at the moment (zeros: absent)
	 */
	public record Step(String name, ObjectId from, ObjectId to) {

		/** Whether the step deletes the ref. */
		public boolean deletes() {
			return this.to.isZero();
		}

		/** Whether the step creates the ref. */
		public boolean creates() {
			return this.from.isZero();
		}

	}

	public RewindPlan {
		if (prefix.indexOf('\n') >= 0) {
			throw new IllegalArgumentException("a prefix holds no line break");
		}
		List<Step> ordered = new ArrayList<>(steps.size());
		steps.stream().filter(Step::deletes).forEach(ordered::add);
		steps.stream().filter((step) -> !step.deletes()).forEach(ordered::add);
		steps = List.copyOf(ordered);
	}

	/** The plan that undoes this one: every step the other way. */
	public RewindPlan inverse() {
		return new RewindPlan(this.hash, this.repository, this.at, this.prefix,
				this.steps.stream().map((step) -> new Step(step.name(), step.to(), step.from())).toList());
	}

	/**
	 * Writes the plan and the plan that undoes it ({@link #undoName}) into {@code dir},
	 * made if missing, under a new name: {@code rewind-<UTC time>-<4 hex digits>.plan}.
	 * @return the plan's file name
	 */
	public String saveIn(Path dir) throws IOException {
		Fsync.createDirectories(dir);
		String name = "rewind-" + STAMP.format(Instant.now()) + "-"
				+ Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000)) + ".plan";
		inverse().write(dir.resolve(undoName(name)));
		write(dir.resolve(name));
		return name;
	}

	/** Whether {@code name} is a plan's file name as {@link #saveIn} makes them. */
	public static boolean isPlanName(String name) {
		return name != null && PLAN_NAME.matcher(name).matches();
	}

	/** The file name of the plan that undoes the plan named {@code name}. */
	public static String undoName(String name) {
		return name.substring(0, name.length() - ".plan".length()) + ".undo.plan";
	}

	/** Writes the plan to {@code file}: whole, synced, or not at all. */
	public void write(Path file) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream(128 + this.steps.size() * 120);
		line(out, MAGIC);
		line(out, "hash " + this.hash.configName());
		line(out, "repository " + ((this.repository == null) ? "-" : this.repository.value()));
		line(out, "at " + this.at.getEpochSecond() + "." + String.format("%09d", this.at.getNano()));
		line(out, "prefix " + this.prefix);
		for (Step step : this.steps) {
			line(out, "step " + step.from().name() + " " + step.to().name() + " " + step.name());
		}
		Fsync.writeAtomically(file, out.toByteArray(), out.size(), file.resolveSibling(file.getFileName() + ".tmp"));
	}

	private static void line(ByteArrayOutputStream out, String text) {
		out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
		out.write('\n');
	}

	/**
	 * Reads a plan.
	 * @throws IOException naming the line that is not a plan's
	 */
	public static RewindPlan read(Path file) throws IOException {
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS), StandardCharsets.UTF_8),
				1 << 16)) {
			if (!MAGIC.equals(reader.readLine())) {
				throw new IOException("it is not a rewind plan (its first line is not '" + MAGIC + "')");
			}
			HashAlgorithm hash = null;
			RepositoryId repository = null;
			Instant at = null;
			String prefix = null;
			List<Step> steps = new ArrayList<>();
			int number = 1;
			for (String line = reader.readLine(); line != null; line = reader.readLine()) {
				number++;
				int space = line.indexOf(' ');
				String key = (space < 0) ? line : line.substring(0, space);
				String value = (space < 0) ? "" : line.substring(space + 1);
				try {
					switch (key) {
						case "hash" -> hash = HashAlgorithm.fromConfigName(value);
						case "repository" -> repository = value.equals("-") ? null
								: RepositoryId.parse(value).orElseThrow(IllegalArgumentException::new);
						case "at" -> {
							String[] parts = value.split("\\.", 2);
							at = Instant.ofEpochSecond(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
						}
						case "prefix" -> prefix = value;
						case "step" -> steps.add(step(hash, value));
						default -> throw new IllegalArgumentException();
					}
				}
				catch (RuntimeException ex) {
					throw new IOException("line " + number + " is not a rewind plan's: '" + line + "'");
				}
			}
			if (hash == null || at == null || prefix == null) {
				throw new IOException("it lacks its hash, at or prefix line");
			}
			return new RewindPlan(hash, repository, at, prefix, steps);
		}
	}

	private static Step step(HashAlgorithm hash, String value) {
		String[] parts = value.split(" ", 3);
		return new Step(parts[2], ObjectId.fromHex(hash, parts[0]), ObjectId.fromHex(hash, parts[1]));
	}

	/**
	 * The plan a job names, checked: a file (not a link) inside {@code dir} of the git
	 * directory, reached without a symbolic link, written for this repository.
	 * @param parameter the parameter that named it
	 * @param given the file as given, relative to {@code dir}
	 * @throws RefusedJobInputException naming {@code parameter} if it is refused
	 */
	public static Path checkInput(String parameter, Repository repository, String dir, String given)
			throws IOException {
		Path gitDir = repository.gitDir();
		Path path = RepositoryInputs.check(parameter, gitDir, dir, given, RepositoryInputs.Kind.FILE);
		Optional<RepositoryId> recorded;
		try {
			recorded = Optional.ofNullable(read(path).repository());
		}
		catch (IOException ex) {
			throw new RefusedJobInputException(parameter, given, "'" + gitDir.relativize(path)
					+ "' is not a rewind plan this refstore reads (" + ex.getMessage() + ")");
		}
		RepositoryInputs.checkOwner(parameter, given, recorded, repository);
		return path;
	}

}
