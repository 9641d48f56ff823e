package io.refstore.web.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * How the answer of a node comes back through the node that forwarded the request: a
 * redirect naming the serving node (Tomcat makes it absolute from the forwarded request's
 * {@code Host}) leads back through the forwarding node, any other is left as it is; a
 * cookie of the serving node never reaches the browser, whose session is the forwarding
 * node's.
 */
class RepoForwardingFilterTest {

	@Test
	void aRedirectToTheServingNodeLeadsBackThroughThisNode() {
		assertThat(
				RepoForwardingFilter.here("http://vm:38799/repo/deleted?name=s-beta%2Fteam%2Fr.git", "http://vm:38799"))
			.isEqualTo("/repo/deleted?name=s-beta%2Fteam%2Fr.git");
		assertThat(RepoForwardingFilter.here("https://Beta.example:443/jobs/12#confirm-undo", "https://beta.example"))
			.isEqualTo("/jobs/12#confirm-undo");
		assertThat(RepoForwardingFilter.here("http://beta:8080", "http://beta:8080/")).isEqualTo("/");
	}

	@Test
	void aRedirectElsewhereOrAlreadyRelativeIsPassedOnAsItIs() {
		for (String location : new String[] { "/jobs/12", "http://beta:8081/jobs/12", "https://beta:8080/jobs/12",
				"http://other:8080/jobs/12", "https://sso.example/login?next=%2Fjobs", "not a uri ^" }) {
			assertThat(RepoForwardingFilter.here(location, "http://beta:8080")).as(location).isEqualTo(location);
		}
	}

	@Test
	void theServingNodesCookiesStayThereAndItsOtherHeadersComeBack() {
		for (String cookie : new String[] { "Set-Cookie", "set-cookie", "SET-COOKIE2" }) {
			assertThat(RepoForwardingFilter.passedBack(cookie)).as(cookie).isFalse();
		}
		for (String header : new String[] { "Location", "ETag", "Content-Type", "Link", "Retry-After", "HX-Redirect",
				"Cache-Control" }) {
			assertThat(RepoForwardingFilter.passedBack(header)).as(header).isTrue();
		}
	}

}
