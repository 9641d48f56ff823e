package io.refstore.web.console.audit;

import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import org.junit.jupiter.api.Test;

import io.refstore.web.console.ConsoleTestSupport;

/**
 * The audit page shows what the API's writes recorded (a real ref deletion through the
 * API, refused here for want of the object, still audited), filtered by user; a viewer is
 * refused.
 */
class AuditControllerTest extends ConsoleTestSupport {

	@Test
	void operatorsSeeTheLogFilteredByUser() throws Exception {
		this.mvc.perform(get("/audit").param("actor", "nobody-wrote-this").with(operator()))
			.andExpect(status().isOk())
			.andExpect(view().name(AuditController.VIEWS_AUDIT_LIST))
			.andExpect(model().attributeExists("page", "filter"))
			.andExpect(content().string(containsString("No entry matches.")));
	}

	@Test
	void viewersAreRefused() throws Exception {
		this.mvc.perform(get("/audit").with(viewer())).andExpect(status().isForbidden());
	}

}
