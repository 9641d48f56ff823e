package io.refstore.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

class FsyncTest {

	private static final Path GIT = Path.of("/repo/.git");

	@Test
	void namesEachDirectoryAndTheOnesAboveItUpToTheTopOnce() {
		assertThat(Fsync.withParentsUpTo(List.of(GIT.resolve("refs/heads/old"), GIT.resolve("refs/heads/old/"),
				GIT.resolve("refs/heads/new"), GIT.resolve("refs/tags"), GIT), GIT))
			.containsExactly(GIT.resolve("refs/heads/old"), GIT.resolve("refs/heads"), GIT.resolve("refs"), GIT,
					GIT.resolve("refs/heads/new"), GIT.resolve("refs/tags"));
		assertThat(Fsync.withParentsUpTo(List.of(), GIT)).isEmpty();
	}

	@Test
	void refusesADirectoryOutsideTheTop() {
		assertThatThrownBy(() -> Fsync.withParentsUpTo(List.of(Path.of("/repo/refs")), GIT))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessage("/repo/refs is not below /repo/.git");
	}

}
