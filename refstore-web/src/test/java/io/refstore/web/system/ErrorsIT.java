package io.refstore.web.system;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

import io.refstore.web.ApiTestSupport;

/**
 * Spring MVC's own errors come as RFC 9457 problems too, with no exception text: unknown
 * paths, wrong methods, unacceptable and unsupported media types.
 */
class ErrorsIT extends ApiTestSupport {

	private static void isProblem(ResultActions result, int status) throws Exception {
		result.andExpect(status().is(status))
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.status").value(status))
			.andExpect(jsonPath("$.title").isNotEmpty())
			.andExpect(content().string(not(containsString("Exception"))))
			.andExpect(content().string(not(containsString("\tat "))))
			.andExpect(content().string(not(containsString("trace"))));
	}

	@Test
	void unknownApiPathIsANotFoundProblem() throws Exception {
		isProblem(this.mvc.perform(get("/api/nothing-here").with(as("viewer"))), 404);
		isProblem(this.mvc.perform(get("/api/nothing-here")), 401);
	}

	@Test
	void wrongMethodIsAMethodNotAllowedProblem() throws Exception {
		isProblem(this.mvc.perform(delete("/api/repos").with(as("admin"))), 405);
	}

	@Test
	void unacceptableAndUnsupportedMediaTypesAreProblems() throws Exception {
		isProblem(this.mvc.perform(get("/api/repos").with(as("viewer")).accept(MediaType.IMAGE_PNG)), 406);
		isProblem(this.mvc.perform(post(repoUri("x", "/refs:batch")).with(as("admin"))
			.contentType(MediaType.TEXT_PLAIN)
			.content("refs/heads/x")), 415);
	}

	@Test
	void theConsoleRedirectsToItsLoginPage() throws Exception {
		this.mvc.perform(get("/")).andExpect(status().is3xxRedirection());
		this.mvc.perform(get("/login")).andExpect(status().isOk()).andExpect(content().string(containsString("_csrf")));
	}

}
