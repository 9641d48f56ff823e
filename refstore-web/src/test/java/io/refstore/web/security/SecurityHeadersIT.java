package io.refstore.web.security;

import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.junit.jupiter.api.Test;

import io.refstore.web.ApiTestSupport;

/**
 * The console's pages carry a strict Content-Security-Policy (only the console's own
 * scripts and styles, never inline), and HSTS is sent over TLS only.
 */
class SecurityHeadersIT extends ApiTestSupport {

	@Test
	void consolePagesAllowOnlyTheirOwnScriptsAndStyles() throws Exception {
		this.mvc.perform(get("/login"))
			.andExpect(status().isOk())
			.andExpect(header().string("Content-Security-Policy",
					allOf(containsString("default-src 'self'"), containsString("script-src 'self';"),
							containsString("style-src 'self';"), containsString("frame-ancestors 'none'"),
							not(containsString("unsafe")))))
			.andExpect(header().doesNotExist("Strict-Transport-Security"));
	}

	@Test
	void hstsIsSentOverTls() throws Exception {
		this.mvc.perform(get("/login").secure(true))
			.andExpect(header().string("Strict-Transport-Security", containsString("max-age=")));
		this.mvc.perform(get("/api/repos").secure(true).with(as("viewer")))
			.andExpect(header().string("Strict-Transport-Security", containsString("max-age=")));
		this.mvc.perform(get("/api/repos").with(as("viewer")))
			.andExpect(header().doesNotExist("Strict-Transport-Security"));
	}

}
