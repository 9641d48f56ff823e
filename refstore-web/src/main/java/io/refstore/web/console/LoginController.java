package io.refstore.web.console;

import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The console's login page. Spring Security's form login processes the POST to
 * {@code /login} (with its CSRF token) and redirects back here with {@code ?error} after
 * a failed attempt or {@code ?logout} after logging out.
 */
@ConsoleController
class LoginController {

	static final String VIEWS_LOGIN = "system/login";

	@GetMapping("/login")
	String showLogin(@RequestParam(required = false) String error, @RequestParam(required = false) String logout,
			Model model) {
		model.addAttribute("failed", error != null);
		model.addAttribute("loggedOut", logout != null);
		return VIEWS_LOGIN;
	}

}
