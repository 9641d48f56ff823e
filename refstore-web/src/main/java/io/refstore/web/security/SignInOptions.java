package io.refstore.web.security;

import java.util.List;

/**
 * How one signs in to the console, for the login page: with the password form (the
 * configured users or the LDAP directory), and through which OpenID Connect providers.
 *
 * @param passwordForm whether the password form is offered
 * @param providers the OpenID Connect providers, in their configured order
 */
public record SignInOptions(boolean passwordForm, List<Provider> providers) {

	public SignInOptions {
		providers = List.copyOf(providers);
	}

	/**
	 * An OpenID Connect provider.
	 *
	 * @param name its name, as the user knows it
	 * @param path where signing in with it starts
	 */
	public record Provider(String name, String path) {

	}

}
