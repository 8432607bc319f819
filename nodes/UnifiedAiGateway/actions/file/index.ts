import { resourceModule } from '../resourceModule';
import * as uploadImage from './uploadImage.operation';

export const { operations, description } = resourceModule('file', [
	[
		{
			name: 'Upload Image',
			value: 'uploadImage',
			action: 'Upload an image',
			description:
				'Upload a JPEG, PNG, WebP or GIF image (at most 20 MB) from binary data ' +
				'and get a public URL valid for 72 hours, to use as a reference image for ' +
				'image edits or videos (POST /v1/uploads/images). Returns the URL, file ' +
				'name, content type, size in bytes, upload time and expiry time ' +
				'(expiresAt). Not a generation call, so not billed.',
		},
		uploadImage,
	],
]);
