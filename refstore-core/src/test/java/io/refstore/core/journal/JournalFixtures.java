package io.refstore.core.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.provider.Arguments;

import io.refstore.core.repo.Repository;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/** Repositories with the journal hook, made and written by a real git. */
final class JournalFixtures {

	/**
	 * A repository's own hook: logs each state and its input to {@code own-hook.log} in
	 * the directory it runs in, and says so on standard output.
	 */
	static final String LOGGING_HOOK = """
			#!/bin/sh
			echo "own hook: $1"
			echo "== $1" >>own-hook.log
			cat >>own-hook.log
			""";

	private JournalFixtures() {
	}

	/** git 2.39 with the files format, git 2.55 with both. */
	static Stream<Arguments> gits() {
		return Stream.of(Arguments.of("2.39", "files"), Arguments.of("2.55", "files"),
				Arguments.of("2.55", "reftable"));
	}

	static GitCli git(String version) {
		return version.equals("2.39") ? GitCli.system() : GitCli.reftable();
	}

	/**
	 * {@code git init} of the format, git 2.39 given no format option (it knows none).
	 */
	static TempRepo init(String version, String format, Path dir, String... options) {
		List<String> all = new ArrayList<>(List.of(options));
		if (!version.equals("2.39")) {
			all.add("--ref-format=" + format);
		}
		return TempRepo.init(git(version), dir, all.toArray(String[]::new));
	}

	static JournalHook.Outcome install(Path gitDir) throws IOException {
		try (Repository repository = Repository.open(gitDir, GitCli.system().environment())) {
			return JournalHook.install(repository, JournalHook.DEFAULT_WRITER_ENV);
		}
	}

	static JournalHook.Outcome uninstall(Path gitDir) throws IOException {
		try (Repository repository = Repository.open(gitDir, GitCli.system().environment())) {
			return JournalHook.uninstall(repository);
		}
	}

	static Path journal(TempRepo repo) {
		try (Repository repository = Repository.open(repo.gitDir(), GitCli.system().environment())) {
			return JournalHook.journalFile(repository);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Every entry of the repository's journal, checking that no line was damaged. */
	static List<JournalEntry> entries(TempRepo repo) {
		List<JournalEntry> entries = new ArrayList<>();
		try (JournalReader reader = JournalReader.open(journal(repo))) {
			for (JournalEntry entry = reader.next(); entry != null; entry = reader.next()) {
				entries.add(entry);
			}
			if (reader.skipped() != 0) {
				throw new AssertionError(reader.skipped() + " damaged lines in " + journal(repo));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return entries;
	}

	/** The entries as git's hook gives them: {@code <old> <new> <ref>}. */
	static List<String> changes(List<JournalEntry> entries) {
		return entries.stream().map((e) -> e.oldValue() + " " + e.newValue() + " " + e.refName()).toList();
	}

	static void writeHook(Path file, String script) throws IOException {
		Files.createDirectories(file.getParent());
		Files.writeString(file, script);
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
	}

	/** The lines a logging hook got in the {@code committed} state, in order. */
	static List<String> committedLines(Path log) throws IOException {
		return stateLines(log, "committed");
	}

	/** The lines a logging hook got in {@code state}, in order. */
	static List<String> stateLines(Path log, String state) throws IOException {
		List<String> lines = new ArrayList<>();
		boolean in = false;
		for (String line : Files.readAllLines(log)) {
			if (line.startsWith("== ")) {
				in = line.equals("== " + state);
			}
			else if (in) {
				lines.add(line);
			}
		}
		return lines;
	}

}
