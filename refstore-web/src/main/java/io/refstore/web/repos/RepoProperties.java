package io.refstore.web.repos;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import io.refstore.core.repo.RepositoryDiscovery;

/**
 * How repositories are searched and kept open: {@code refstore.repositories.*} but for
 * {@code roots}, which the jobs' {@code RefBatchProperties} binds (default
 * {@code ${REFSTORE_HOME:${user.home}/.refstore}/repos}) and the
 * {@link io.refstore.core.repo.RepositoryPaths} bean carries. Checked on start: a bad
 * value stops the application, naming the setting.
 *
 * @param maxDepth how many directory levels below a root a plain tree is searched for
 * repositories (default {@value RepositoryDiscovery#DEFAULT_MAX_DEPTH}, 1 to 64), so that
 * {@code group/subgroup/project.git} is found; GitLab's hashed storage
 * ({@code @hashed/ab/cd/<sha256>.git}) is found by its layout whatever the bound
 * @param openStores how many repositories' ref stores are kept open between requests
 * (default 64, at least 1)
 */
@Validated
@ConfigurationProperties("refstore.repositories")
public record RepoProperties(@DefaultValue("" + RepositoryDiscovery.DEFAULT_MAX_DEPTH) @Min(1) @Max(64) int maxDepth,
		@DefaultValue("64") @Min(1) int openStores) {

}
