package io.refstore.web.console;

import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import io.refstore.web.security.SignInOptions;

/**
 * The console's login page. Spring Security's form login processes the POST to
 * {@code /login} (with its CSRF token) and redirects back here with {@code ?error} after
 * a failed attempt or {@code ?logout} after logging out. With single sign-on the page
 * also links to each OpenID Connect provider (or only to them, when no password can sign
 * in), and Spring Security's OpenID Connect login comes back with {@code ?sso-failed}
 * when the provider refused or the answer was not valid.
 */
@ConsoleController
class LoginController {

	static final String VIEWS_LOGIN = "system/login";

	private final SignInOptions options;

	LoginController(SignInOptions options) {
		this.options = options;
	}

	@GetMapping("/login")
	String showLogin(@RequestParam(required = false) String error, @RequestParam(required = false) String logout,
			@RequestParam(name = "sso-failed", required = false) String ssoFailed, Model model) {
		model.addAttribute("failed", error != null);
		model.addAttribute("ssoFailed", ssoFailed != null);
		model.addAttribute("loggedOut", logout != null);
		model.addAttribute("signIn", this.options);
		return VIEWS_LOGIN;
	}

}
