package io.refstore.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.refstore.core.testing.GitCli;

/**
 * A {@code refstore update-ref --stdin} process, a JVM of its own, whose transaction is
 * prepared: every lock taken, {@code prepare: ok} read back, {@code commit} not yet sent.
 * For the tests that kill it there.
 */
record PreparedUpdateRef(Process process, OutputStream in, BufferedReader out) {

	/**
	 * Starts the command in {@code repo} and sends {@code prepared} (from {@code start}
	 * up to {@code prepare}), returning once it answered {@code prepare: ok}.
	 */
	static PreparedUpdateRef start(Path repo, byte[] prepared) throws IOException {
		GitCli refstore = GitCli.refstore();
		List<String> command = new ArrayList<>(refstore.command());
		command.addAll(List.of("update-ref", "--stdin"));
		ProcessBuilder builder = new ProcessBuilder(command).directory(repo.toFile())
			.redirectError(ProcessBuilder.Redirect.DISCARD);
		builder.environment().putAll(refstore.environment());
		Process process = builder.start();
		OutputStream in = process.getOutputStream();
		BufferedReader out = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		try {
			in.write(prepared);
			in.flush();
			String line;
			while ((line = out.readLine()) != null && !line.equals("prepare: ok")) {
				// start: ok
			}
			assertThat(line).as("the transaction prepared").isEqualTo("prepare: ok");
		}
		catch (IOException | RuntimeException | AssertionError ex) {
			process.destroyForcibly();
			throw ex;
		}
		return new PreparedUpdateRef(process, in, out);
	}

}
