package io.refstore.web.campaigns;

import java.net.URI;
import java.util.List;
import java.util.Map;

import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.refstore.web.system.InvalidRequestException;

/**
 * {@code /api/campaigns}: list, read with per-repository results, create, cancel. VIEWER
 * reads; OPERATOR creates and cancels; ADMIN only for destructive job types
 * ({@link CampaignService}). Refusals are problem+json naming the field.
 */
@RestController
@RequestMapping("/api/campaigns")
class CampaignApiController {

	private final CampaignService campaigns;

	CampaignApiController(CampaignService campaigns) {
		this.campaigns = campaigns;
	}

	@GetMapping
	List<Campaign> list(@RequestParam(defaultValue = "100") int limit) {
		if (limit < 1 || limit > 1000) {
			throw new InvalidRequestException("limit", Integer.toString(limit), "must be 1 to 1000");
		}
		return this.campaigns.list(limit);
	}

	@GetMapping("/{id}")
	Map<String, Object> show(@PathVariable long id) {
		Campaign campaign = this.campaigns.find(id).orElseThrow(() -> new CampaignNotFoundException(id));
		return Map.of("campaign", campaign, "repositories", this.campaigns.targets(id));
	}

	@PostMapping
	ResponseEntity<Campaign> create(@RequestBody CampaignRequest request, Authentication actor) {
		Campaign created = this.campaigns.create(request, actor);
		return ResponseEntity.created(URI.create("/api/campaigns/" + created.id())).body(created);
	}

	@PostMapping("/{id}/cancel")
	Campaign cancel(@PathVariable long id, Authentication actor) {
		return this.campaigns.cancel(id, actor);
	}

}
