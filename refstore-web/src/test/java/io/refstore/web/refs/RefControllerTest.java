package io.refstore.web.refs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MvcResult;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;

/**
 * One ref's page over a repository made by git: a branch with its reflog newest first, an
 * annotated tag with its peeled value, the symbolic {@code HEAD}, and the pages for a
 * missing ref and a malformed name.
 */
class RefControllerTest extends ConsoleTestSupport {

	static String name;

	static String first;

	static String second;

	static String tag;

	@BeforeAll
	static void repository() {
		name = uniqueName("ref-page");
		TempRepo repo = bareRepo(name);
		first = repo.commit("one", null);
		second = repo.commit("two", first);
		repo.git("update-ref", "--create-reflog", "-m", "created it", "refs/heads/main", first);
		repo.git("update-ref", "--create-reflog", "-m", "moved it", "refs/heads/main", second);
		tag = repo.tagObject("v1", second, "commit");
		repo.git("update-ref", "refs/tags/v1", tag);
	}

	@Test
	void showsABranchWithItsReflogNewestFirst() throws Exception {
		MvcResult result = this.mvc
			.perform(get("/repo/ref").param("name", name).param("ref", "refs/heads/main").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(view().name(RefController.VIEWS_REF_DETAILS))
			.andExpect(content().string(containsString("moved it")))
			.andReturn();
		RefView ref = (RefView) result.getModelAndView().getModel().get("ref");
		assertThat(ref.object().sha()).isEqualTo(second);
		assertThat(ref.object().type()).isEqualTo("commit");
		@SuppressWarnings("unchecked")
		List<ReflogView> reflog = (List<ReflogView>) result.getModelAndView().getModel().get("reflog");
		assertThat(reflog).extracting(ReflogView::message).containsExactly("moved it", "created it");
		assertThat(reflog.get(0).old()).isEqualTo(first);
	}

	@Test
	void showsAnAnnotatedTagWithItsPeeledValueAndNoLog() throws Exception {
		this.mvc.perform(get("/repo/ref").param("name", name).param("ref", "refs/tags/v1").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(model().attribute("ref",
					new RefView("refs/tags/v1", new RefView.ObjectView(tag, "tag"), second, null)))
			.andExpect(model().attribute("reflog", List.of()))
			.andExpect(content().string(containsString("id=\"no-reflog\"")));
	}

	@Test
	void showsTheSymbolicHead() throws Exception {
		this.mvc.perform(get("/repo/ref").param("name", name).param("ref", "HEAD").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"symref\"")))
			.andExpect(content().string(containsString("refs/heads/main")));
	}

	@Test
	void aMissingRefIsNotFoundAndAMalformedNameABadRequest() throws Exception {
		this.mvc.perform(get("/repo/ref").param("name", name).param("ref", "refs/heads/nope").with(viewer()))
			.andExpect(status().isNotFound())
			.andExpect(model().attribute("explanation", containsString("refs/heads/nope")));
		this.mvc.perform(get("/repo/ref").param("name", name).param("ref", "refs/heads/a..b").with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(view().name("system/error"))
			.andExpect(model().attribute("explanation", containsString("a..b")));
		// a path of the git directory is no ref, though check-ref-format alone would let
		// it through
		this.mvc.perform(get("/repo/ref").param("name", name).param("ref", "logs/refs/heads/main").with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(view().name("system/error"))
			.andExpect(model().attribute("explanation", containsString("logs/refs/heads/main")))
			.andExpect(model().attribute("explanation",
					containsString(io.refstore.core.ref.RefName.Rule.OUTSIDE_REFS.description())));
	}

}
