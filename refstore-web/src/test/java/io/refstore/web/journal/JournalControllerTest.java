package io.refstore.web.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.refstore.core.journal.JournalHook;
import io.refstore.core.repo.Repository;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;

/**
 * The journal's console forms: a viewer's restore is refused and changes nothing; an
 * admin's refused undo or restore comes back as the page's problem in words, the
 * repository as git read it before.
 */
class JournalControllerTest extends ConsoleTestSupport {

	@Autowired
	JournalService journal;

	@Test
	void aViewerCannotRestoreAndAStaleUndoChangesNothing() throws Exception {
		String name = uniqueName("journal-console") + ".git";
		TempRepo repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(name), "--bare", "--ref-format=files");
		try (Repository repository = Repository.open(repo.gitDir(), GitCli.system().environment())) {
			JournalHook.install(repository, JournalHook.DEFAULT_WRITER_ENV);
		}
		String c1 = repo.commit("one", null);
		String c2 = repo.commit("two", c1);
		repo.git("update-ref", "refs/heads/gone", c1);
		repo.git("update-ref", "-d", "refs/heads/gone", c1);
		repo.git("update-ref", "refs/heads/main", c1);
		repo.git("update-ref", "refs/heads/main", c2, c1);
		this.mvc.perform(get("/repo/deleted").param("name", name).with(viewer())).andExpect(status().isOk());

		this.mvc
			.perform(post("/repo/deleted/restore").param("name", name)
				.param("ref", "refs/heads/gone")
				.with(viewer())
				.with(csrf()))
			.andExpect(status().isForbidden());
		assertThat(repo.git().run(repo.dir(), "rev-parse", "--verify", "-q", "refs/heads/gone").exitCode()).isNotZero();

		this.mvc.perform(post("/repo/deleted/restore").param("name", name).with(admin()).with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andExpect(flash().attribute("problem", "Select at least one deleted ref to restore."));

		// main moved again after the change to undo: the undo is refused
		repo.git("update-ref", "refs/heads/main", c1, c2);
		long move = entryOf(name, "refs/heads/main", c1, c2);
		repo.git("update-ref", "refs/heads/main", c2, c1);
		repo.git("update-ref", "refs/heads/main", c1, c2);
		this.mvc
			.perform(post("/repo/journal/undo").param("name", name)
				.param("entry", Long.toString(move))
				.param("ref", "refs/heads/main")
				.with(admin())
				.with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andExpect(flash().attribute("problem", startsWith("Nothing was changed: ")));
		assertThat(repo.git("rev-parse", "refs/heads/main")).isEqualTo(c1 + "\n");
	}

	/**
	 * The id of the newest entry that moved {@code ref} from {@code from} to {@code to}.
	 */
	private long entryOf(String repo, String ref, String from, String to) throws IOException {
		return asViewer(() -> {
			try {
				return this.journal.timeline(repo, ref, "", null, 0, 100)
					.items()
					.stream()
					.filter((e) -> e.oldValue().equals(from) && e.newValue().equals(to))
					.findFirst()
					.orElseThrow()
					.id();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		});
	}

}
