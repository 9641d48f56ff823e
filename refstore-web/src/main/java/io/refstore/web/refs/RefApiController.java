package io.refstore.web.refs;

import java.io.IOException;
import java.util.List;
import java.util.stream.Collectors;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriUtils;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * Reads refs: {@code /api/repos/{repo}/refs}, one ref, its log. Repository and ref names
 * are single path segments: their slashes are sent percent-encoded
 * ({@code refs%2Fheads%2Fmain}), as GitLab's API does, which keeps
 * {@code .../refs/{ref}/log} unambiguous for every ref name.
 */
@RestController
@RequestMapping("/api/repos/{repo}")
@Tag(name = "refs")
class RefApiController {

	/**
	 * Clients may keep a page, but must revalidate it (If-None-Match) before each use.
	 */
	private static final CacheControl REVALIDATE = CacheControl.noCache().cachePrivate();

	private final RefService refs;

	private final RefFactsService facts;

	RefApiController(RefService refs, RefFactsService facts) {
		this.refs = refs;
		this.facts = facts;
	}

	@GetMapping("/refs")
	@Operation(summary = "A page of refs in bytewise name order (VIEWER)",
			description = "Keyset paging: pass the 'next' of a page as 'after' to get the following page; the "
					+ "Link header carries the same as rel=\"next\". The ETag changes exactly when the page's "
					+ "content would; If-None-Match with it answers 304. With facts=true each ref also has its "
					+ "commit's date (creatordate), author (a tag's tagger), email and subject, and whether the "
					+ "branch HEAD names has merged it: that walks HEAD's history once per page.")
	ResponseEntity<?> listRefs(@PathVariable String repo,
			@Parameter(description = "only names starting with this") @RequestParam(defaultValue = "") String prefix,
			@Parameter(description = "only names matching this for-each-ref pattern") @RequestParam(
					defaultValue = "") String glob,
			@Parameter(description = "only names after this one (the previous page's 'next')") @RequestParam(
					defaultValue = "") String after,
			@Parameter(description = "page size, 1 to 1000") @RequestParam(defaultValue = "100") int limit,
			@Parameter(
					description = "add each ref's date, author, email, subject and merged into HEAD's branch") @RequestParam(
							defaultValue = "false") boolean facts,
			@RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch,
			HttpServletRequest request) throws IOException {
		RefPage page = this.refs.page(repo, prefix, glob, after, limit);
		List<RefCommit> commits = facts ? this.facts.commits(repo, page.refs(), true) : null;
		// merged follows HEAD's branch, which the page's own tag does not cover
		String etag = facts
				? RefService.etag("facts " + page.etag(), List.of(),
						commits.stream().map((c) -> String.valueOf(c.merged())).collect(Collectors.joining()))
				: page.etag();
		if (ifNoneMatch != null && EntityTags.matches(ifNoneMatch, etag)) {
			return ResponseEntity.status(HttpStatus.NOT_MODIFIED).eTag(etag).cacheControl(REVALIDATE).build();
		}
		ResponseEntity.BodyBuilder response = ResponseEntity.ok().eTag(etag).cacheControl(REVALIDATE);
		if (page.next() != null) {
			response.header(HttpHeaders.LINK, nextLink(request, prefix, glob, limit, page.next(), facts));
		}
		return facts ? response.body(RefFactsView.of(page, commits)) : response.body(page);
	}

	@GetMapping("/refs/{ref}")
	@Operation(summary = "One ref: its object and type, peeled value and symref target (VIEWER)",
			description = "The ETag is the ref's current value, ready for If-Match on PUT and DELETE.")
	ResponseEntity<RefView> showRef(@PathVariable String repo,
			@Parameter(description = "full ref name, '/' encoded as %2F") @PathVariable String ref) throws IOException {
		RefView view = this.refs.ref(repo, ref);
		ResponseEntity.BodyBuilder response = ResponseEntity.ok();
		if (view.symref() == null && view.object() != null) {
			response.eTag(view.object().sha());
		}
		return response.body(view);
	}

	@GetMapping("/refs/{ref}/log")
	@Operation(summary = "A ref's log, newest entry first (VIEWER)")
	List<ReflogView> showReflog(@PathVariable String repo, @PathVariable String ref,
			@RequestParam(defaultValue = "100") int limit) throws IOException {
		return this.refs.reflog(repo, ref, limit);
	}

	private static String nextLink(HttpServletRequest request, String prefix, String glob, int limit, String next,
			boolean facts) {
		StringBuilder link = new StringBuilder("<").append(request.getRequestURI()).append("?");
		if (!prefix.isEmpty()) {
			link.append("prefix=").append(UriUtils.encodeQueryParam(prefix, "UTF-8")).append('&');
		}
		if (!glob.isEmpty()) {
			link.append("glob=").append(UriUtils.encodeQueryParam(glob, "UTF-8")).append('&');
		}
		link.append("limit=").append(limit).append("&after=").append(UriUtils.encodeQueryParam(next, "UTF-8"));
		if (facts) {
			link.append("&facts=true");
		}
		return link.append(">; rel=\"next\"").toString();
	}

}
