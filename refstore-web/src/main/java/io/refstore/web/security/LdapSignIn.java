package io.refstore.web.security;

import java.util.Collection;

import org.springframework.ldap.core.DirContextOperations;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.ldap.DefaultSpringSecurityContextSource;
import org.springframework.security.ldap.SpringSecurityLdapTemplate;
import org.springframework.security.ldap.authentication.BindAuthenticator;
import org.springframework.security.ldap.authentication.LdapAuthenticationProvider;
import org.springframework.security.ldap.search.FilterBasedLdapUserSearch;
import org.springframework.security.ldap.userdetails.LdapAuthoritiesPopulator;

/**
 * Password sign-ins checked by an LDAP directory ({@link SecurityProperties.Ldap}): the
 * password by binding as the user's entry, the roles from the user's groups through
 * {@link GroupRoles}.
 */
final class LdapSignIn {

	private LdapSignIn() {
	}

	/** The provider that signs in the directory's users. */
	static LdapAuthenticationProvider provider(SecurityProperties.Ldap settings, GroupRoles roles) {
		DefaultSpringSecurityContextSource directory = new DefaultSpringSecurityContextSource(settings.url());
		if (settings.managerDn() != null) {
			directory.setUserDn(settings.managerDn());
			directory.setPassword(settings.managerPassword());
		}
		directory.afterPropertiesSet();
		BindAuthenticator authenticator = new BindAuthenticator(directory);
		if (settings.userDnPattern() != null && !settings.userDnPattern().isBlank()) {
			authenticator.setUserDnPatterns(new String[] { settings.userDnPattern() });
		}
		else {
			authenticator.setUserSearch(
					new FilterBasedLdapUserSearch(settings.userSearchBase(), settings.userSearchFilter(), directory));
		}
		return new LdapAuthenticationProvider(authenticator, new GroupSearch(settings, directory, roles));
	}

	/** The roles of the groups whose entries match the group search filter. */
	private static final class GroupSearch implements LdapAuthoritiesPopulator {

		private final SecurityProperties.Ldap settings;

		private final SpringSecurityLdapTemplate ldap;

		private final GroupRoles roles;

		GroupSearch(SecurityProperties.Ldap settings, DefaultSpringSecurityContextSource directory, GroupRoles roles) {
			this.settings = settings;
			this.ldap = new SpringSecurityLdapTemplate(directory);
			this.roles = roles;
		}

		@Override
		public Collection<? extends GrantedAuthority> getGrantedAuthorities(DirContextOperations user,
				String username) {
			return this.roles.authorities(this.ldap.searchForSingleAttributeValues(this.settings.groupSearchBase(),
					this.settings.groupSearchFilter(), new String[] { user.getNameInNamespace(), username },
					this.settings.groupNameAttribute()));
		}

	}

}
