package io.refstore.benchmark;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Decides whether refstore did what git did, with git as the judge: the same printed
 * bytes for a read, the same refs (as {@code git show-ref} lists them), the expected
 * format and a clean {@code git refs verify} for a write. Fast numbers for a wrong result
 * would be worthless, so every side's first run is judged. Not thread-safe.
 */
final class Judge {

	private final Processes processes;

	private final String git;

	/** Where git's output is kept to show the first difference. */
	private final Path expectedOutput;

	private String expectedDigest;

	Judge(Processes processes, String git, Path scratch) {
		this.processes = processes;
		this.git = git;
		this.expectedOutput = scratch.resolve("expected-output.txt");
	}

	/** Takes git's result of the operation as the reference for the next judgements. */
	void expect(Operation operation, Path output, Path repo) throws IOException {
		switch (operation.check()) {
			case NONE -> this.expectedDigest = null;
			case OUTPUT -> {
				Files.copy(output, this.expectedOutput, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
				this.expectedDigest = digest(output);
			}
			case REFS -> {
				this.expectedDigest = refsDigest(operation, repo);
				if (this.expectedDigest.startsWith("format ")) {
					throw new IllegalStateException(
							"git's own " + operation.id() + " left " + repo + " in " + this.expectedDigest);
				}
			}
		}
	}

	/**
	 * Judges refstore's result against the reference.
	 * @return why it differs from git's, or {@code null} if it does not
	 */
	String judge(Operation operation, Path output, Path repo) throws IOException {
		switch (operation.check()) {
			case NONE -> {
				return null;
			}
			case OUTPUT -> {
				return digest(output).equals(this.expectedDigest) ? null
						: "output differs from git's: " + firstDifference(this.expectedOutput, output);
			}
			default -> {
				String digest = refsDigest(operation, repo);
				if (!digest.equals(this.expectedDigest)) {
					return "refs differ from git's result (" + digest + " vs " + this.expectedDigest + ")";
				}
				Processes.Measured verify = this.processes.measure(List.of(this.git, "refs", "verify"), repo, null,
						repo.resolveSibling("verify.out"));
				return (verify.exitCode() == 0) ? null : "git refs verify failed: " + verify.stderr();
			}
		}
	}

	/** The format and a digest of {@code git show-ref} in {@code repo}. */
	private String refsDigest(Operation operation, Path repo) throws IOException {
		String format = this.processes.check(List.of(this.git, "rev-parse", "--show-ref-format"), repo).strip();
		if (!format.equals(operation.expectedFormat())) {
			return "format " + format + ", not " + operation.expectedFormat();
		}
		Path listing = repo.resolveSibling("show-ref.out");
		Processes.Measured showRef = this.processes.measure(List.of(this.git, "show-ref"), repo, null, listing);
		if (showRef.exitCode() > 1) {
			throw new IllegalStateException("git show-ref failed in " + repo + ": " + showRef.stderr());
		}
		long lines;
		try (BufferedReader reader = Files.newBufferedReader(listing, StandardCharsets.UTF_8)) {
			lines = reader.lines().count();
		}
		String digest = format + ", " + lines + " refs, show-ref " + digest(listing).substring(0, 12);
		Files.delete(listing);
		return digest;
	}

	/** SHA-256 of a file, in hex. */
	static String digest(Path file) throws IOException {
		MessageDigest sha;
		try {
			sha = MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every JDK has SHA-256", ex);
		}
		byte[] buffer = new byte[1 << 16];
		try (InputStream in = Files.newInputStream(file)) {
			for (int n; (n = in.read(buffer)) > 0;) {
				sha.update(buffer, 0, n);
			}
		}
		return HexFormat.of().formatHex(sha.digest());
	}

	/** The first line where two outputs differ, quoted from both. */
	static String firstDifference(Path expected, Path actual) throws IOException {
		try (BufferedReader git = Files.newBufferedReader(expected, StandardCharsets.UTF_8);
				BufferedReader refstore = Files.newBufferedReader(actual, StandardCharsets.UTF_8)) {
			for (int line = 1;; line++) {
				String a = git.readLine();
				String b = refstore.readLine();
				if (a == null && b == null) {
					return "same lines, different bytes (line ends?)";
				}
				if (a == null || !a.equals(b)) {
					return "line " + line + ": git '" + a + "', refstore '" + b + "'";
				}
			}
		}
	}

}
