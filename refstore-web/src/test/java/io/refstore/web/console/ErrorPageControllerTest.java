package io.refstore.web.console;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import jakarta.servlet.RequestDispatcher;

import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/**
 * The container's error dispatch renders the console's error page for browsers: the
 * status it was given, a heading and a sentence for a person, and nothing of the
 * exception.
 */
class ErrorPageControllerTest extends ConsoleTestSupport {

	@Test
	void notFoundShowsAFriendlyPage() throws Exception {
		this.mvc
			.perform(get("/error").accept(MediaType.TEXT_HTML).requestAttr(RequestDispatcher.ERROR_STATUS_CODE, 404))
			.andExpect(status().isNotFound())
			.andExpect(view().name("system/error"))
			.andExpect(model().attribute("heading", "Not found"))
			.andExpect(model().attribute("status", 404))
			.andExpect(content().string(containsString("There is nothing at this address.")));
	}

	@Test
	void forbiddenAndBadRequestHaveTheirOwnWords() throws Exception {
		this.mvc
			.perform(get("/error").accept(MediaType.TEXT_HTML).requestAttr(RequestDispatcher.ERROR_STATUS_CODE, 403))
			.andExpect(status().isForbidden())
			.andExpect(model().attribute("heading", "Forbidden"))
			.andExpect(content().string(containsString("Your role does not allow this")));
		this.mvc
			.perform(get("/error").accept(MediaType.TEXT_HTML).requestAttr(RequestDispatcher.ERROR_STATUS_CODE, 400))
			.andExpect(status().isBadRequest())
			.andExpect(model().attribute("heading", "Bad request"));
	}

	@Test
	void serverErrorNeverShowsTheException() throws Exception {
		this.mvc
			.perform(get("/error").accept(MediaType.TEXT_HTML)
				.requestAttr(RequestDispatcher.ERROR_STATUS_CODE, 500)
				.requestAttr(RequestDispatcher.ERROR_EXCEPTION, new IllegalStateException("secret internals")))
			.andExpect(status().isInternalServerError())
			.andExpect(model().attribute("heading", "Something went wrong"))
			.andExpect(content().string(not(containsString("secret internals"))))
			.andExpect(content().string(not(containsString("IllegalStateException"))))
			.andExpect(content().string(not(containsString("at io.refstore"))));
	}

	@Test
	void aBrowserAskingForAnUnknownConsoleAddressGetsThePageAndAnApiClientAProblem() throws Exception {
		this.mvc.perform(get("/no/such/page").accept(MediaType.TEXT_HTML).with(viewer()))
			.andExpect(status().isNotFound())
			.andExpect(view().name("system/error"))
			.andExpect(model().attribute("heading", "Not found"));
		this.mvc.perform(get("/api/no/such/page").accept(MediaType.APPLICATION_JSON).with(as("viewer")))
			.andExpect(status().isNotFound())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON));
	}

	@Test
	void anUnknownStatusOrNoneIsAServerError() throws Exception {
		this.mvc.perform(get("/error").accept(MediaType.TEXT_HTML))
			.andExpect(status().isInternalServerError())
			.andExpect(view().name("system/error"));
	}

}
