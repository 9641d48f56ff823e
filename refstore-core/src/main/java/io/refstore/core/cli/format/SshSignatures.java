package io.refstore.core.cli.format;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.refstore.core.cli.format.SignatureCheck.Run;
import io.refstore.core.cli.format.SignatureCheck.SignedPayload;
import io.refstore.core.repo.GitConfig;

/**
 * Verifies an SSH signature as git does, with {@code ssh-keygen -Y}: find the principals
 * the allowed signers file ({@code gpg.ssh.allowedSignersFile}) knows for the key, verify
 * as each until one is good; a key nobody is allowed is only checked
 * ({@code check-novalidate}), which shows what signed but never grades it trusted.
 * Stateless.
 */
final class SshSignatures {

	private SshSignatures() {
	}

	static SignatureCheck verify(SignedPayload signed, GitConfig config, Map<String, String> env, List<String> errors,
			String verifyTime) throws IOException {
		String program = config.getString("gpg", "ssh", "program").orElse("ssh-keygen");
		String allowed = config.getString("gpg", "ssh", "allowedSignersFile").map((p) -> path(p, env)).orElse(null);
		if (allowed == null) {
			errors.add("error: gpg.ssh.allowedSignersFile needs to be configured and exist for ssh signature "
					+ "verification");
			return SignatureCheck.NONE;
		}
		String revocation = config.getString("gpg", "ssh", "revocationFile").map((p) -> path(p, env)).orElse(null);
		Path sigFile = Files.createTempFile(".git_vtag_tmp", "");
		try {
			Files.write(sigFile, signed.signature());
			Run principals = Run
				.of(withTime(List.of(program, "-Y", "find-principals", "-f", allowed, "-s", sigFile.toString()),
						verifyTime), new byte[0], env);
			if (principals == null) {
				return SignatureCheck.NONE;
			}
			if (principals.exit() != 0 && principals.stderr().contains("usage:")) {
				errors.add("error: ssh-keygen -Y find-principals/verify is needed for ssh signature verification "
						+ "(available in openssh version 8.2p1+)");
				return SignatureCheck.NONE;
			}
			Run verified = null;
			if (principals.exit() != 0 || principals.stdout().isEmpty()) {
				// nobody may sign with this key: show what signed, but never as good
				verified = Run
					.of(withTime(List.of(program, "-Y", "check-novalidate", "-n", "git", "-s", sigFile.toString()),
							verifyTime), signed.payload(), env);
			}
			else {
				for (String line : principals.stdout().split("\n")) {
					String principal = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
					if (principal.isEmpty()) {
						continue;
					}
					List<String> command = new ArrayList<>(withTime(List.of(program, "-Y", "verify", "-n", "git", "-f",
							allowed, "-I", principal, "-s", sigFile.toString()), verifyTime));
					if (revocation != null) {
						if (Files.exists(Path.of(revocation))) {
							command.addAll(List.of("-r", revocation));
						}
						else {
							errors.add("warning: ssh signing revocation file configured but not found: " + revocation);
						}
					}
					verified = Run.of(command, signed.payload(), env);
					if (verified != null && verified.exit() == 0 && verified.stdout().startsWith("Good")) {
						break;
					}
				}
			}
			String out = (verified != null) ? stripSpace(verified.stdout()) : "";
			String err = (verified != null) ? stripSpace(verified.stderr()) : "";
			return SignatureCheck.parseSshOutput(out + principals.stderr() + err);
		}
		finally {
			Files.deleteIfExists(sigFile);
		}
	}

	private static List<String> withTime(List<String> command, String verifyTime) {
		if (verifyTime == null) {
			return command;
		}
		List<String> timed = new ArrayList<>(command);
		timed.add(verifyTime);
		return timed;
	}

	/** A configured path, {@code ~/} meaning the home directory. */
	private static String path(String value, Map<String, String> env) {
		if (value.startsWith("~/") && env.get("HOME") != null) {
			return env.get("HOME") + value.substring(1);
		}
		return value;
	}

	/**
	 * git's clean-up of program output: trailing blanks cut from each line, blank lines
	 * at either end dropped and runs of them made one, a newline after the last line.
	 */
	static String stripSpace(String text) {
		StringBuilder out = new StringBuilder();
		int blanks = 0;
		for (String line : text.split("\n", -1)) {
			String stripped = line.stripTrailing();
			if (stripped.isEmpty()) {
				blanks++;
				continue;
			}
			if (blanks > 0 && !out.isEmpty()) {
				out.append('\n');
			}
			blanks = 0;
			out.append(stripped).append('\n');
		}
		return out.toString();
	}

}
