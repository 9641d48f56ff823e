package io.refstore.core.cli.format;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.objects.ObjectText.Ident;
import io.refstore.core.repo.GitConfig;

/**
 * The outcome of checking a commit's signature (its {@code gpgsig} header) for
 * {@code %(signature...)}: as git does, the check runs the signing program the signature
 * names ({@code gpg} for OpenPGP, {@code gpgsm} for X.509, {@code ssh-keygen} for SSH,
 * each as {@code gpg.<format>.program} configures it) and reads its status output.
 *
 * @param output what the program printed for a person, {@code %(signature)}
 * @param result git's grade before trust: {@code G}ood, {@code B}ad, {@code E}rror, a
 * {@code X}/{@code Y} expired signature or key, {@code R}evoked key, {@code N}o signature
 * @param trust the trust level, an index into {@link #TRUST_LEVELS}
 * @param key the key id, or empty
 * @param signer who signed, or empty
 * @param fingerprint the signing key's fingerprint, or empty
 * @param primaryFingerprint the primary key's fingerprint (OpenPGP), or empty
 */
record SignatureCheck(String output, char result, int trust, String key, String signer, String fingerprint,
		String primaryFingerprint) {

	/**
	 * gpg's trust levels, lowest first, as {@code %(signature:trustlevel)} names them.
	 */
	static final List<String> TRUST_LEVELS = List.of("undefined", "never", "marginal", "fully", "ultimate");

	private static final int UNDEFINED = 0;

	private static final int NEVER = 1;

	private static final int FULLY = 3;

	static final SignatureCheck NONE = new SignatureCheck("", 'N', UNDEFINED, "", "", "", "");

	/** The {@code %(signature:<option>)} value; {@code option} null for the bare atom. */
	String value(String option) {
		if (option == null) {
			return this.output;
		}
		return switch (option) {
			case "grade" -> (this.result == 'G' && this.trust <= NEVER) ? "U" : String.valueOf(this.result);
			case "signer" -> this.signer;
			case "key" -> this.key;
			case "fingerprint" -> this.fingerprint;
			case "primarykeyfingerprint" -> this.primaryFingerprint;
			default -> TRUST_LEVELS.get(this.trust);
		};
	}

	/**
	 * Checks the signature in an object's headers.
	 * @param content the object's bytes
	 * @param header the signature header of the repository's hash, {@code gpgsig} or
	 * {@code gpgsig-sha256}
	 * @param config the repository's configuration (programs, SSH allowed signers)
	 * @param errors receives git's {@code error:}/{@code warning:} lines
	 */
	static SignatureCheck check(byte[] content, String header, GitConfig config, Map<String, String> env,
			List<String> errors) throws IOException, CommandFailure {
		SignedPayload signed = SignedPayload.parse(content, header);
		if (signed == null) {
			return NONE;
		}
		String signature = new String(signed.signature(), StandardCharsets.ISO_8859_1);
		if (signature.startsWith("-----BEGIN PGP SIGNATURE-----")
				|| signature.startsWith("-----BEGIN PGP MESSAGE-----")) {
			String program = config.getString("gpg", "openpgp", "program")
				.or(() -> config.getString("gpg", null, "program"))
				.orElse("gpg");
			return gpg(List.of(program, "--keyid-format=long"), signed, env);
		}
		if (signature.startsWith("-----BEGIN SIGNED MESSAGE-----")) {
			return gpg(List.of(config.getString("gpg", "x509", "program").orElse("gpgsm")), signed, env);
		}
		if (signature.startsWith("-----BEGIN SSH SIGNATURE-----")) {
			return SshSignatures.verify(signed, config, env, errors, verifyTime(signed.payload()));
		}
		throw CommandFailure.fatal("bad/incompatible signature '" + signature + "'");
	}

	/** ssh-keygen's {@code -Overify-time=} from the committer's date, in local time. */
	private static String verifyTime(byte[] payload) {
		String text = new String(payload, StandardCharsets.UTF_8);
		for (String line : text.split("\n")) {
			if (line.isEmpty()) {
				break;
			}
			if (line.startsWith("committer ")) {
				Ident ident = Ident.parse(line.substring(10));
				if (ident != null && ident.seconds() != 0) {
					return "-Overify-time=" + DateTimeFormatter.ofPattern("yyyyMMddHHmmss")
						.format(Instant.ofEpochSecond(ident.seconds()).atZone(ZoneId.systemDefault()));
				}
			}
		}
		return null;
	}

	/**
	 * {@code <program> --status-fd=1 --verify <signature file> -}, the payload on stdin.
	 */
	private static SignatureCheck gpg(List<String> program, SignedPayload signed, Map<String, String> env)
			throws IOException {
		Path sigFile = Files.createTempFile(".git_vtag_tmp", "");
		try {
			Files.write(sigFile, signed.signature());
			List<String> command = new ArrayList<>(program);
			command.addAll(List.of("--status-fd=1", "--verify", sigFile.toString(), "-"));
			Run run = Run.of(command, signed.payload(), env);
			if (run == null) {
				return NONE;
			}
			return parseGpgStatus(run.stdout(), run.stderr());
		}
		finally {
			Files.deleteIfExists(sigFile);
		}
	}

	/** Reads gpg's {@code [GNUPG:]} status lines. */
	static SignatureCheck parseGpgStatus(String status, String output) {
		char result = 'N';
		int trust = UNDEFINED;
		String key = "";
		String signer = "";
		String fingerprint = "";
		String primary = "";
		int exclusive = 0;
		for (String line : status.split("\n")) {
			if (!line.startsWith("[GNUPG:] ")) {
				continue;
			}
			String rest = line.substring(9);
			int space = rest.indexOf(' ');
			String word = (space < 0) ? rest : rest.substring(0, space);
			String args = (space < 0) ? null : rest.substring(space + 1);
			char grade = switch (word) {
				case "GOODSIG" -> 'G';
				case "BADSIG" -> 'B';
				case "ERRSIG" -> 'E';
				case "EXPSIG" -> 'X';
				case "EXPKEYSIG" -> 'Y';
				case "REVKEYSIG" -> 'R';
				default -> 0;
			};
			if (grade != 0 && args != null) {
				// one signature gives one of these; more means several signatures, which
				// git refuses as fishy
				if (exclusive++ > 0) {
					return new SignatureCheck(output, 'E', trust, "", "", "", "");
				}
				result = grade;
				int end = args.indexOf(' ');
				key = (end < 0) ? args : args.substring(0, end);
				if (end >= 0 && grade != 'E') {
					signer = args.substring(end + 1);
				}
			}
			else if (word.equals("VALIDSIG") && args != null) {
				String[] fields = args.split(" ", -1);
				fingerprint = fields[0];
				// the primary key's fingerprint is the tenth field, OpenPGP only
				primary = (fields.length >= 10) ? String.join(" ", List.of(fields).subList(9, fields.length)) : "";
			}
			else if (word.startsWith("TRUST_")) {
				String name = word.substring(6);
				int level = TRUST_LEVELS.indexOf(name.toLowerCase(Locale.ROOT));
				if (level < 0 || !name.equals(name.toUpperCase(Locale.ROOT))) {
					return new SignatureCheck(output, 'E', trust, "", "", "", "");
				}
				trust = level;
			}
		}
		return new SignatureCheck(output, result, trust, key, signer, fingerprint, primary);
	}

	/**
	 * What ssh-keygen's first line says: {@code Good "git" signature for <principal> with
	 * <type> key <fingerprint>}, or {@code ... signature with ...} for a key not in the
	 * allowed signers.
	 */
	static SignatureCheck parseSshOutput(String output) {
		int eol = output.indexOf('\n');
		String line = (eol < 0) ? output : output.substring(0, eol);
		String forPrefix = "Good \"git\" signature for ";
		String withPrefix = "Good \"git\" signature with ";
		String signer = "";
		int trust;
		String rest;
		if (line.startsWith(forPrefix)) {
			rest = line.substring(forPrefix.length());
			int with = rest.lastIndexOf(" with ");
			if (with < 0) {
				return new SignatureCheck(output, 'B', NEVER, "", "", "", "");
			}
			signer = rest.substring(0, with);
			rest = rest.substring(with + 1);
			trust = FULLY;
		}
		else if (line.startsWith(withPrefix)) {
			rest = line.substring(withPrefix.length());
			trust = UNDEFINED;
		}
		else {
			return new SignatureCheck(output, 'B', NEVER, "", "", "", "");
		}
		int key = rest.indexOf("key ");
		if (key < 0) {
			return new SignatureCheck(output, 'B', trust, "", signer, "", "");
		}
		String fingerprint = rest.substring(key + 4);
		return new SignatureCheck(output, 'G', trust, fingerprint, signer, fingerprint, "");
	}

	/** A finished program's exit code and output. */
	record Run(int exit, String stdout, String stderr) {

		/**
		 * Runs a program to its end, {@code input} on its standard input.
		 * @return {@code null} if it cannot be started
		 */
		static Run of(List<String> command, byte[] input, Map<String, String> env) throws IOException {
			return of(command, input, env, null);
		}

		/**
		 * {@link #of(List, byte[], Map)} in a directory.
		 * @param dir where it runs, {@code null} for here
		 */
		static Run of(List<String> command, byte[] input, Map<String, String> env, Path dir) throws IOException {
			Path in = Files.createTempFile(".git_vtag_in", "");
			Path out = Files.createTempFile(".git_vtag_out", "");
			Path err = Files.createTempFile(".git_vtag_err", "");
			try {
				Files.write(in, input);
				ProcessBuilder builder = new ProcessBuilder(command).redirectInput(in.toFile())
					.redirectOutput(out.toFile())
					.redirectError(err.toFile())
					.directory((dir != null) ? dir.toFile() : null);
				// the command's environment over this process's: git's variables the
				// command dropped (a global option's doing) stay dropped
				builder.environment().keySet().removeIf((name) -> name.startsWith("GIT_") && !env.containsKey(name));
				builder.environment().putAll(env);
				Process process;
				try {
					process = builder.start();
				}
				catch (IOException ex) {
					return null;
				}
				int exit;
				try {
					exit = process.waitFor();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					process.destroy();
					throw new IOException("interrupted while " + command.get(0) + " ran", ex);
				}
				return new Run(exit, Files.readString(out, StandardCharsets.ISO_8859_1),
						Files.readString(err, StandardCharsets.ISO_8859_1));
			}
			finally {
				Files.deleteIfExists(in);
				Files.deleteIfExists(out);
				Files.deleteIfExists(err);
			}
		}

	}

	/**
	 * A signed object split as git splits it: the signature header's lines, and the rest
	 * (what was signed).
	 */
	record SignedPayload(byte[] payload, byte[] signature) {

		/**
		 * @return {@code null} if the object has no signature header
		 */
		static SignedPayload parse(byte[] content, String header) {
			ByteArrayOutputStream payload = new ByteArrayOutputStream(content.length);
			ByteArrayOutputStream signature = new ByteArrayOutputStream();
			byte[] headerBytes = header.getBytes(StandardCharsets.US_ASCII);
			boolean inSignature = false;
			boolean otherSignature = false;
			boolean saw = false;
			int line = 0;
			while (line < content.length) {
				int next = line;
				while (next < content.length && content[next] != '\n') {
					next++;
				}
				next = Math.min(next + 1, content.length);
				int sig = -1;
				if (inSignature && content[line] == ' ') {
					sig = line + 1;
				}
				else if (startsWith(content, line, headerBytes) && line + headerBytes.length < content.length
						&& content[line + headerBytes.length] == ' ') {
					sig = line + headerBytes.length + 1;
					otherSignature = false;
				}
				else if (startsWith(content, line, "gpgsig".getBytes(StandardCharsets.US_ASCII))) {
					// another hash's signature is not part of what this one signed
					otherSignature = true;
				}
				else if (otherSignature && content[line] != ' ') {
					otherSignature = false;
				}
				if (sig >= 0) {
					signature.write(content, sig, next - sig);
					saw = true;
					inSignature = true;
				}
				else {
					if (content[line] == '\n') {
						// the message follows the headers whole
						next = content.length;
					}
					if (!otherSignature) {
						payload.write(content, line, next - line);
					}
					inSignature = false;
				}
				line = next;
			}
			return saw ? new SignedPayload(payload.toByteArray(), signature.toByteArray()) : null;
		}

		private static boolean startsWith(byte[] content, int at, byte[] prefix) {
			if (at + prefix.length > content.length) {
				return false;
			}
			for (int i = 0; i < prefix.length; i++) {
				if (content[at + i] != prefix[i]) {
					return false;
				}
			}
			return true;
		}

	}

}
