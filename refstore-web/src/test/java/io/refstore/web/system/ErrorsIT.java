package io.refstore.web.system;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

import io.refstore.web.ApiTestSupport;

/**
 * Spring MVC's own errors come as RFC 9457 problems too, with no exception text: unknown
 * paths, wrong methods, unacceptable and unsupported media types, Accept headers that are
 * no media types, parameters of the wrong type or given twice.
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
	void repeatedAndMistypedParametersAreInvalidParameterProblemsNamingTheParameter() throws Exception {
		String[][] cases = { { "from", "1", "2" }, { "limit", "abc" }, { "outcome", "MAYBE" }, { "to", "yesterday" },
				{ "before", "1", "2", "3" } };
		for (String[] query : cases) {
			ResultActions result = this.mvc.perform(
					get("/api/audit").with(as("operator")).param(query[0], Arrays.copyOfRange(query, 1, query.length)));
			isProblem(result, 400);
			result.andExpect(jsonPath("$.type").value("https://refstore.io/problems/invalid-parameter"))
				.andExpect(jsonPath("$.parameter").value(query[0]))
				.andExpect(jsonPath("$.detail").value(containsString("parameter '" + query[0] + "' = '")))
				.andExpect(content().string(not(containsString("[L"))))
				.andExpect(content().string(not(containsString("Failed to convert"))))
				.andExpect(content().string(not(containsString("java."))));
		}
		this.mvc.perform(get("/api/audit").with(as("operator")).param("from", "1", "2"))
			.andExpect(jsonPath("$.detail").value(containsString("given 2 times")));
		this.mvc.perform(get("/api/audit").with(as("operator")).param("outcome", "MAYBE"))
			.andExpect(jsonPath("$.detail").value(containsString("one of SUCCESS, REJECTED")));
	}

	@Test
	void anAcceptHeaderThatIsNoListOfMediaTypesIsAProblemNamingIt() throws Exception {
		for (String accept : new String[] { "*/*;q=abc", "application/", "text/html;;;=" }) {
			ResultActions result = this.mvc
				.perform(get("/api/repos").with(as("viewer")).header(HttpHeaders.ACCEPT, accept));
			isProblem(result, 406);
			result.andExpect(jsonPath("$.header").value("Accept")).andExpect(jsonPath("$.correlationId").isNotEmpty());
		}
	}

	@Test
	void theConsoleRedirectsToItsLoginPage() throws Exception {
		this.mvc.perform(get("/")).andExpect(status().is3xxRedirection());
		this.mvc.perform(get("/login")).andExpect(status().isOk()).andExpect(content().string(containsString("_csrf")));
	}

}
