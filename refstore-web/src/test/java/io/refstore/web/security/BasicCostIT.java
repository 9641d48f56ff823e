package io.refstore.web.security;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.RequestBuilder;

import com.jayway.jsonpath.JsonPath;

import io.refstore.web.ApiTestSupport;

/**
 * What an authenticated request costs through the real filter chain, Basic (its password
 * remembered after the first check) against a bearer token: every request must succeed;
 * the medians are printed for the record, not asserted.
 */
class BasicCostIT extends ApiTestSupport {

	@Test
	void basicRequestsCostAboutWhatTokenRequestsCost() throws Exception {
		String body = this.mvc
			.perform(post("/api/tokens").with(as("operator"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"name\": \"cost\"}"))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString();
		String secret = JsonPath.read(body, "$.secret");
		double basic = median(get("/api/tokens").with(as("operator")));
		double token = median(get("/api/tokens").header("Authorization", "Bearer " + secret));
		System.out.printf("median GET /api/tokens: Basic %.2f ms, token %.2f ms%n", basic, token);
	}

	private double median(RequestBuilder request) throws Exception {
		long[] times = new long[31];
		for (int i = 0; i < times.length; i++) {
			long start = System.nanoTime();
			this.mvc.perform(request).andExpect(status().isOk());
			times[i] = System.nanoTime() - start;
		}
		Arrays.sort(times);
		return times[times.length / 2] / 1e6;
	}

}
