package io.refstore.web.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * A journal page's {@code Link: rel="next"} is relative to the address asked: a request
 * another node of the fleet forwarded arrives with that node's own address, which the
 * client may not reach and where it has no session.
 */
class JournalApiControllerTest {

	@AfterEach
	void forgetTheRequest() {
		RequestContextHolder.resetRequestAttributes();
	}

	@Test
	void theNextPagesLinkNamesNoHostSoItLeadsBackThroughTheNodeAsked() {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/repos/team%2Fj.git/journal");
		request.setScheme("http");
		request.setServerName("beta.internal");
		request.setServerPort(38799);
		request.setQueryString("ref=refs%2Fheads%2Fmain&limit=2&before=40");
		RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));

		ResponseEntity<JournalPage<String>> page = JournalApiController.paged(new JournalPage<>(List.of("a"), 17L));

		assertThat(page.getHeaders().getFirst(HttpHeaders.LINK))
			.isEqualTo("</api/repos/team%2Fj.git/journal?ref=refs%2Fheads%2Fmain&limit=2&before=17>; rel=\"next\"");
		assertThat(JournalApiController.paged(new JournalPage<>(List.of("a"), null))
			.getHeaders()
			.getFirst(HttpHeaders.LINK)).isNull();
	}

}
