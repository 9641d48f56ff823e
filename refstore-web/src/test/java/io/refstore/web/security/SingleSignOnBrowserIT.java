package io.refstore.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.refstore.web.console.BrowserTestSupport;

/**
 * OpenID Connect login in a real headless Chromium, against the provider started here:
 * the login page offers "Sign in with Test IdP" beside the password form; a user whose
 * group maps to ADMIN signs in on the provider's own form and lands on the console as
 * ADMIN under their {@code preferred_username}; a user whose groups map to no role signs
 * in with no role and is refused the pages.
 */
class SingleSignOnBrowserIT extends BrowserTestSupport {

	private static final OidcProvider provider = OidcProvider.start();

	@DynamicPropertySource
	static void oidc(DynamicPropertyRegistry registry) {
		String registration = "spring.security.oauth2.client.registration.idp.";
		registry.add("refstore.security.oidc.enabled", () -> "true");
		registry.add(registration + "client-id", () -> OidcProvider.CLIENT);
		registry.add(registration + "client-secret", () -> OidcProvider.SECRET);
		registry.add(registration + "client-name", () -> "Test IdP");
		registry.add(registration + "scope", () -> "openid,profile");
		registry.add("spring.security.oauth2.client.provider.idp.issuer-uri", provider::issuer);
		registry.add("refstore.security.sso.roles.ADMIN", () -> "refstore-admins");
	}

	@AfterAll
	static void stopProvider() {
		provider.close();
	}

	/**
	 * refstore on {@code 127.0.0.1}, the provider on {@code localhost}: a browser keeps
	 * cookies by host, not port, and the provider accepts a loopback address's redirect
	 * on any port.
	 */
	@Override
	protected String url(String path) {
		return "http://127.0.0.1:" + this.port + path;
	}

	@BeforeEach
	void signOutOfTheProviderToo() {
		chrome.executeCdpCommand("Network.clearBrowserCookies", Map.of());
	}

	private void signInAtTheProvider(String user) {
		chrome.get(url("/login"));
		assertThat(chrome.findElements(By.id("password"))).as("the password form beside single sign-on").hasSize(1);
		screenshot("sso-login-page");
		chrome.findElement(By.linkText("Sign in with Test IdP")).click();
		waitFor(By.cssSelector("button[type=submit]"));
		assertThat(chrome.getCurrentUrl()).startsWith(provider.issuer() + "/login");
		chrome.findElement(By.id("username")).sendKeys(user);
		chrome.findElement(By.id("password")).sendKeys(OidcProvider.PASSWORD);
		chrome.findElement(By.cssSelector("button[type=submit]")).click();
		waitFor(By.cssSelector("header .who"));
		assertThat(chrome.getCurrentUrl()).startsWith(url("/"));
	}

	@Test
	void aMappedUserSignsInThroughTheProviderWithTheirRole() {
		signInAtTheProvider("alice");
		waitFor(By.id("repos"));
		screenshot("sso-oidc-signed-in");
		assertThat(chrome.findElement(By.cssSelector("header .who")).getText()).contains("alice").contains("ADMIN");
		assertThat(chrome.findElements(By.linkText("Audit"))).hasSize(1);
	}

	@Test
	void aUserWhoseGroupsMapToNoRoleIsRefusedThePages() {
		signInAtTheProvider("bob");
		assertThat(chrome.findElement(By.cssSelector("header .who")).getText()).contains("bob").contains("NONE");
		assertThat(chrome.findElement(By.tagName("h1")).getText()).isEqualTo("Forbidden");
		assertThat(chrome.findElements(By.id("repos"))).isEmpty();
	}

}
